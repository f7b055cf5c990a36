import { connect, type Socket } from "node:net";
import { encodeLine, LIMITS, LineDecoder } from "../src/protocol/index.js";

// biome-ignore lint/suspicious/noExplicitAny: the bench reads whatever comes back
type Message = Record<string, any>;

/** A bench connection: JSON lines, requests matched by id, events to a callback. */
export class LinesClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: Message) => void>();
  onEvent: (event: Message) => void = () => {};

  private constructor(private readonly socket: Socket) {
    const decoder = new LineDecoder(LIMITS.maxLineBytes);
    socket.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        const m = JSON.parse(line) as Message;
        if (typeof m.event === "string") this.onEvent(m);
        else {
          const done = this.waiting.get(m.id);
          this.waiting.delete(m.id);
          done?.(m);
        }
      }
    });
    socket.on("error", () => {});
  }

  static open(path: string): Promise<LinesClient> {
    return new Promise((resolve, reject) => {
      const s = connect(path);
      s.once("error", reject);
      s.once("connect", () => resolve(new LinesClient(s)));
    });
  }

  /** Opens the connection once the server listens (a process just started), trying for 30 s. */
  static async openWhenReady(path: string): Promise<LinesClient> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await LinesClient.open(path);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  request(op: string, args: object): Promise<Message> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.write(encodeLine({ id, op, args }));
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
