import { WEB_INPUT_CHUNK } from "../../protocol/web.js";

/**
 * Keys typed into an attached terminal go out in order, one request at a time (as `roost attach`
 * sends them): what is typed while one is on its way goes with the next, a long paste in pieces the
 * wire takes. A piece refused (the keyboard passed, the connection broke) drops what followed it:
 * keys out of order would be worse than keys lost.
 */
export class KeyQueue {
  private pending = "";
  private sending = false;

  /** `send` resolves whether the piece was taken. */
  constructor(private readonly send: (data: string) => Promise<boolean>) {}

  push(data: string): void {
    this.pending += data;
    void this.flush();
  }

  private async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    while (this.pending !== "") {
      const piece = firstPiece(this.pending);
      this.pending = this.pending.slice(piece.length);
      if (!(await this.send(piece))) this.pending = "";
    }
    this.sending = false;
  }
}

/** At most `WEB_INPUT_CHUNK` characters, never half of a surrogate pair. */
function firstPiece(text: string): string {
  if (text.length <= WEB_INPUT_CHUNK) return text;
  const last = text.charCodeAt(WEB_INPUT_CHUNK - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? WEB_INPUT_CHUNK - 1 : WEB_INPUT_CHUNK);
}
