import type { Terminal } from "@mariozechner/pi-tui";
import xtermHeadless from "@xterm/headless";

const { Terminal: XTerm } = xtermHeadless;

/**
 * A pi-tui Terminal backed by an @xterm/headless screen: the hub draws into a real terminal
 * emulator, and a test types keys, resizes it and reads what a person would see.
 */
export class HeadlessTerminal implements Terminal {
  readonly xterm: InstanceType<typeof XTerm>;
  /** Everything the hub wrote, in bytes. */
  bytesWritten = 0;
  private onInput: ((data: string) => void) | undefined;
  private onResize: (() => void) | undefined;
  private pending: Promise<void> = Promise.resolve();
  started = false;

  constructor(columns = 80, rows = 24) {
    this.xterm = new XTerm({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
  }

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.onInput = onInput;
    this.onResize = onResize;
    this.started = true;
  }

  stop(): void {
    this.onInput = undefined;
    this.onResize = undefined;
    this.started = false;
  }

  async drainInput(): Promise<void> {}

  write(data: string): void {
    this.bytesWritten += Buffer.byteLength(data);
    this.pending = new Promise((resolve) => this.xterm.write(data, resolve));
  }

  get columns(): number {
    return this.xterm.cols;
  }

  get rows(): number {
    return this.xterm.rows;
  }

  get kittyProtocolActive(): boolean {
    return false;
  }

  moveBy(lines: number): void {
    if (lines > 0) this.write(`\x1b[${lines}B`);
    else if (lines < 0) this.write(`\x1b[${-lines}A`);
  }

  hideCursor(): void {
    this.write("\x1b[?25l");
  }

  showCursor(): void {
    this.write("\x1b[?25h");
  }

  clearLine(): void {
    this.write("\x1b[K");
  }

  clearFromCursor(): void {
    this.write("\x1b[J");
  }

  clearScreen(): void {
    this.write("\x1b[2J\x1b[H");
  }

  setTitle(title: string): void {
    this.write(`\x1b]0;${title}\x07`);
  }

  setProgress(): void {}

  /** Types keys, one input event each, as a terminal sends them. */
  type(...keys: string[]): void {
    for (const key of keys) this.onInput?.(key);
  }

  resize(columns: number, rows: number): void {
    this.xterm.resize(columns, rows);
    this.onResize?.();
  }

  /** The screen's lines as text, once what was written has been parsed. */
  async screen(): Promise<string[]> {
    await this.pending;
    const buffer = this.xterm.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this.xterm.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
    return lines;
  }

  async text(): Promise<string> {
    return (await this.screen()).join("\n");
  }
}
