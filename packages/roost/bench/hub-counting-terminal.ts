import type { Terminal } from "@mariozechner/pi-tui";

/** A terminal that only counts what it is sent: bytes, lines drawn, full-screen clears. */
export class CountingTerminal implements Terminal {
  bytes = 0;
  /** Lines drawn: pi-tui clears each line it draws (`ESC[2K`), or the whole screen first. */
  linesWritten = 0;
  fullRedraws = 0;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {}

  reset(): void {
    this.bytes = 0;
    this.linesWritten = 0;
    this.fullRedraws = 0;
  }

  write(data: string): void {
    this.bytes += Buffer.byteLength(data);
    if (data.includes("\x1b[2J")) {
      this.fullRedraws++;
      this.linesWritten += this.rows;
    } else this.linesWritten += data.split("\x1b[2K").length - 1;
  }

  start(): void {}
  stop(): void {}
  async drainInput(): Promise<void> {}
  get kittyProtocolActive(): boolean {
    return false;
  }
  moveBy(): void {}
  hideCursor(): void {}
  showCursor(): void {}
  clearLine(): void {}
  clearFromCursor(): void {}
  clearScreen(): void {}
  setTitle(): void {}
  setProgress(): void {}
}
