import { connect as netConnect, type Socket } from "node:net";
import { errorFromWire, RoostError } from "../protocol/errors.js";
import { encodeLine, LineDecoder } from "../protocol/framing.js";
import { LIMITS } from "../protocol/limits.js";
import { type EventMessage, isEventMessage, isResponse, type Response } from "../protocol/messages.js";

interface PendingRequest {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export interface ConnectionHandlers {
  /** An unasked message from the daemon. */
  onEvent?(event: EventMessage): void;
  /** The connection ended (by either side); `error` when it broke. */
  onClose?(error?: Error): void;
}

/**
 * One JSON-lines connection to the daemon: numbered requests matched to their responses, events
 * passed on. When it ends, every request still waiting is refused with `disconnected`.
 */
export class Connection {
  private nextId = 1;
  private readonly pending = new Map<number, PendingRequest>();
  // The 4 MiB cap is for requests; an answer (every row, say) may be longer, up to what the
  // daemon lets a client leave unread.
  private readonly decoder = new LineDecoder(LIMITS.maxUnreadBytes);
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    private readonly handlers: ConnectionHandlers,
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", (error) => this.finish(error));
    socket.on("close", () => this.finish());
  }

  /** Opens a connection; refuses with `disconnected` when nothing listens on the socket. */
  static open(socketPath: string, handlers: ConnectionHandlers = {}): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = netConnect(socketPath);
      const failed = (error: Error) =>
        reject(new RoostError("disconnected", `cannot connect to ${socketPath}: ${error.message}`));
      socket.once("error", failed);
      socket.once("connect", () => {
        socket.off("error", failed);
        resolve(new Connection(socket, handlers));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends a request; resolves with its result, or rejects with a RoostError carrying the code. */
  request(op: string, args?: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new RoostError("disconnected", "the connection is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(encodeLine(args === undefined ? { id, op } : { id, op, args }));
    });
  }

  /** Ends the connection once what was written is sent. */
  close(): void {
    if (this.closed) return;
    this.socket.end();
    this.finish();
  }

  /** Ends the connection at once. */
  destroy(): void {
    this.socket.destroy();
    this.finish();
  }

  private receive(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.decoder.push(chunk);
    } catch (error) {
      this.socket.destroy();
      this.finish(error as Error);
      return;
    }
    for (const line of lines) {
      if (line.trim() === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // Not ours to fix: a line we cannot read is skipped.
      }
      if (isResponse(message)) this.settle(message);
      else if (isEventMessage(message)) this.handlers.onEvent?.(message);
    }
  }

  private settle(response: Response): void {
    if (typeof response.id !== "number") return;
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    if (response.ok) waiting.resolve(response.result);
    else waiting.reject(errorFromWire(response.code, response.error));
  }

  private finish(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiting of this.pending.values()) {
      waiting.reject(new RoostError("disconnected", "the connection to the daemon was lost"));
    }
    this.pending.clear();
    this.handlers.onClose?.(error);
  }
}
