/**
 * JSON lines: one message a line, UTF-8, `\n`. The decoder splits a byte stream into lines and
 * refuses a line longer than its limit without buffering the rest of it.
 */
export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`line longer than ${limit} bytes`);
    this.name = "LineTooLongError";
  }
}

export class LineDecoder {
  private parts: Buffer[] = [];
  private partsBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds a chunk; returns the complete lines it closed (without `\n`). Throws LineTooLongError. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.partsBytes + piece.length > this.maxLineBytes) throw new LineTooLongError(this.maxLineBytes);
      if (this.parts.length === 0) {
        lines.push(piece.toString("utf8"));
      } else {
        this.parts.push(piece);
        lines.push(Buffer.concat(this.parts).toString("utf8"));
        this.parts = [];
        this.partsBytes = 0;
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.partsBytes + rest.length > this.maxLineBytes) throw new LineTooLongError(this.maxLineBytes);
      this.parts.push(Buffer.from(rest));
      this.partsBytes += rest.length;
    }
    return lines;
  }
}

export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + "\n";
}
