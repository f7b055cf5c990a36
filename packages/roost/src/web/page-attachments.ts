import type { DaemonClient } from "../client/daemon-client.js";
import { isAttachEvent } from "../protocol/attach.js";
import { RoostError } from "../protocol/errors.js";
import type { WebAttachOp, WebMessage } from "../protocol/web.js";

/**
 * One page's attached terminals: a daemon connection of the page's own, made at its first attach,
 * so the daemon counts the page as one attached terminal among the others (the first attached to a
 * job holds its keyboard) and ends its attachments when the page's socket closes and this closes.
 * The daemon sends a job's output after its answer to `attach` (the screen), but the client hands
 * events on at once and answers a moment later: events are held while an attach is answered.
 */
export class PageAttachments {
  private client: Promise<DaemonClient> | null = null;
  private closed = false;
  private attaching = 0;
  private held: WebMessage[] = [];

  constructor(
    private readonly connect: () => Promise<DaemonClient>,
    private readonly send: (message: WebMessage) => void,
  ) {}

  call(op: WebAttachOp, args: unknown): Promise<unknown> {
    if (op === "attach") this.attaching++;
    return this.connection().then((client) => client.call(op, args));
  }

  /** The page was sent the answer to an op: what was held behind an attach's answer follows it. */
  answered(op: WebAttachOp): void {
    if (op !== "attach" || --this.attaching > 0) return;
    const held = this.held;
    this.held = [];
    for (const message of held) this.send(message);
  }

  close(): void {
    this.closed = true;
    void this.client?.then(
      (client) => client.close(),
      () => {},
    );
  }

  private connection(): Promise<DaemonClient> {
    this.client ??= this.connect().then(
      (client) => {
        if (this.closed) {
          client.close();
          throw new RoostError("disconnected", "the page left");
        }
        client.on("event", (event) => {
          if (isAttachEvent(event)) this.pass({ type: "terminal", event });
        });
        client.on("close", () => {
          this.client = null;
          if (!this.closed) this.pass({ type: "terminal-lost" });
        });
        return client;
      },
      (error: Error) => {
        this.client = null;
        throw new RoostError("disconnected", `the daemon is not there to attach to: ${error.message}`);
      },
    );
    return this.client;
  }

  private pass(message: WebMessage): void {
    if (this.attaching > 0) this.held.push(message);
    else this.send(message);
  }
}
