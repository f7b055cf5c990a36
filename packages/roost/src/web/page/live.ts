import type { OpArgs, OpResult } from "../../protocol/ops.js";
import type { WebMessage, WebOp, WebRequest } from "../../protocol/web.js";
import { WEB_LIVE_PATH } from "../../protocol/web.js";

type Answer = Extract<WebMessage, { type: "answer" }>;

interface Outgoing {
  request: WebRequest;
  /** Whether to send it again after a break: a reply (its request id makes it count once) is. */
  resend: boolean;
  /** Sent since the last break (of the page's socket, or of roost web's link to the daemon). */
  sent: boolean;
  settle(answer: Answer): void;
}

/**
 * The page's push channel: rows in, ops out. It reconnects when the connection breaks, and sends
 * again, once per break, every op not answered yet, with the same request: a reply carries its
 * request id, so the daemon would take it once however often it came.
 */
export class Live {
  private socket: WebSocket | null = null;
  private nextRid = 1;
  private readonly waiting = new Map<number, Outgoing>();
  private retryMs = 250;

  constructor(
    private readonly onMessage: (message: WebMessage) => void,
    private readonly onOpen: (open: boolean) => void,
  ) {}

  start(): void {
    const socket = new WebSocket(
      `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${WEB_LIVE_PATH}`,
    );
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryMs = 250;
      this.onOpen(true);
      this.sendUnsent();
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(String(event.data)) as WebMessage));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onOpen(false);
      // What cannot be sent again safely is said to have failed; a reply waits for the next connection.
      for (const [rid, outgoing] of this.waiting) {
        outgoing.sent = false;
        if (!outgoing.resend) {
          this.waiting.delete(rid);
          outgoing.settle({
            type: "answer",
            rid,
            ok: false,
            code: "disconnected",
            error: "the connection broke",
          });
        }
      }
      setTimeout(() => this.start(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 4000);
    });
  }

  /** Sends an op; resolves with its answer. `resend`: only for an op that counts once however often sent. */
  call<O extends WebOp>(
    op: O,
    args: OpArgs<O>,
    resend = false,
  ): Promise<Answer & ({ ok: false } | { ok: true; result: OpResult<O> })> {
    const rid = this.nextRid++;
    const request = { type: "op", rid, op, args } as WebRequest;
    return new Promise((settle) => {
      this.waiting.set(rid, { request, resend, sent: false, settle: settle as (answer: Answer) => void });
      this.sendUnsent();
    });
  }

  /**
   * Sends every op not sent since the last break. Called as the socket opens and when the daemon is
   * back: a page that reconnects hears at once that the daemon is there, and what the open sent
   * must not go twice.
   */
  sendUnsent(): void {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    for (const outgoing of this.waiting.values())
      if (!outgoing.sent) {
        outgoing.sent = true;
        socket.send(JSON.stringify(outgoing.request));
      }
  }

  private receive(message: WebMessage): void {
    if (message.type !== "answer") {
      this.onMessage(message);
      return;
    }
    const outgoing = this.waiting.get(message.rid);
    if (!outgoing) return;
    // The daemon was away: the op is kept and goes again when it is back.
    if (!message.ok && message.code === "disconnected" && outgoing.resend) {
      outgoing.sent = false;
      return;
    }
    this.waiting.delete(message.rid);
    outgoing.settle(message);
  }
}
