import { type Terminal, TUI } from "@mariozechner/pi-tui";

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

/**
 * pi-tui's TUI (its frame pacing, focus and input routing) drawing a full screen of fixed rows.
 * pi-tui draws inline and rewrites every line from the first changed one to the last; the hub
 * owns the whole screen, so each changed row is addressed on its own and nothing else is sent.
 */
export class FullScreenTUI extends TUI {
  private frame: string[] = [];
  private frameWidth = -1;

  constructor(terminal: Terminal) {
    super(terminal);
    // The one step replaced: how a rendered frame reaches the terminal.
    (this as unknown as { doRender(): void }).doRender = () => this.drawChangedRows();
  }

  override requestRender(force = false): void {
    if (force) this.frame = [];
    super.requestRender(force);
  }

  override stop(): void {
    this.frame = [];
    super.stop();
  }

  private drawChangedRows(): void {
    const width = this.terminal.columns;
    const height = this.terminal.rows;
    const lines = this.render(width).slice(0, height);
    while (lines.length < height) lines.push("");
    // A new size, or a forced redraw, clears the screen and draws every row.
    const full = width !== this.frameWidth || this.frame.length !== height;
    let out = full ? "\x1b[0m\x1b[H\x1b[2J" : "";
    for (let row = 0; row < height; row++) {
      if (!full && lines[row] === this.frame[row]) continue;
      // Clear first, then draw: erasing after a full-width line would take its last cell.
      out += `\x1b[${row + 1};1H\x1b[2K${lines[row]}\x1b[0m`;
    }
    this.frame = lines;
    this.frameWidth = width;
    if (out !== "") this.terminal.write(SYNC_START + out + SYNC_END);
  }
}
