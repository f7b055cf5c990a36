import { chmodSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import {
  type DaemonEvent,
  type ErrorResponse,
  encodeLine,
  LIMITS,
  LineDecoder,
  LineTooLongError,
  RoostError,
} from "../protocol/index.js";
import type { Caller, CallerRole, HelloInfo } from "./caller.js";

/** What the server hands each request to, and tells when a connection goes. */
export interface RequestHandler {
  handle(caller: Caller, op: unknown, args: unknown): unknown;
  opened(caller: Caller): void;
  closed(caller: Caller): void;
}

type Parsed = { id: number | string | null; op?: unknown; args?: unknown; error?: string };

function parseRequest(line: string): Parsed {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { id: null, error: "not a JSON line" };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message))
    return { id: null, error: "a request must be a JSON object {id, op, args}" };
  const { id, op, args } = message as Record<string, unknown>;
  const goodId = (typeof id === "number" && Number.isFinite(id)) || typeof id === "string";
  if (!goodId) return { id: null, error: "a request needs an id (a finite number or a string)" };
  if (typeof op !== "string") return { id, error: "a request needs an op (a string)" };
  return { id, op, args };
}

function errorResponse(id: number | string | null, err: unknown): ErrorResponse {
  if (err instanceof RoostError) return { id, ok: false, error: err.message, code: err.code };
  return {
    id,
    ok: false,
    error: `internal error: ${(err as Error)?.message ?? String(err)}`,
    code: "internal",
  };
}

/** How long a closing connection has to take what was written to it before it is destroyed. */
const END_PATIENCE_MS = 1000;

/** Ends a socket once what was written has gone out, and destroys it if that takes too long. */
function endSocket(socket: Socket, last?: string): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), END_PATIENCE_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.end(last ?? "", () => socket.destroy());
}

let nextConnectionId = 1;

/**
 * One client connection: JSON lines in, answers in order out. At most 256 requests are in flight
 * (the socket is not read meanwhile); a line over 4 MiB ends it; a client that leaves 16 MiB
 * unread is dropped.
 */
class Connection implements Caller {
  readonly connectionId = nextConnectionId++;
  role: CallerRole = "unidentified";
  jobId: string | null = null;
  hello: HelloInfo | null = null;
  subscribed = false;
  inFlightPeak = 0;
  private readonly decoder = new LineDecoder(LIMITS.maxLineBytes);
  /** Lines read and not yet taken in (past the in-flight limit), from `backlogHead` on. */
  private backlog: string[] = [];
  private backlogHead = 0;
  /** Requests taken in and not yet answered, in order. */
  private readonly inFlight: Parsed[] = [];
  private answering = false;
  private afterAnswer: (() => void)[] = [];
  private ended = false;

  constructor(
    private readonly socket: Socket,
    private readonly handler: RequestHandler,
  ) {
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => this.drop());
    socket.on("close", () => this.drop());
  }

  get closed(): boolean {
    return this.ended;
  }

  send(event: DaemonEvent | object): void {
    this.write(encodeLine(event));
  }

  sendEach(events: readonly DaemonEvent[]): void {
    if (events.length > 0) this.write(events.map(encodeLine).join(""));
  }

  private write(lines: string): void {
    if (this.ended) return;
    this.socket.write(lines);
    if (this.socket.writableLength > LIMITS.maxUnreadBytes) {
      // The client does not read: it is dropped rather than holding the daemon's memory.
      this.drop();
    }
  }

  later(fn: () => void): void {
    this.afterAnswer.push(fn);
  }

  private read(chunk: Buffer): void {
    if (this.ended) return;
    let lines: string[];
    try {
      lines = this.decoder.push(chunk);
    } catch (err) {
      if (!(err instanceof LineTooLongError)) throw err;
      this.drop(false);
      endSocket(
        this.socket,
        encodeLine({
          id: null,
          ok: false,
          error: `request line longer than ${LIMITS.maxLineBytes} bytes: connection closed`,
          code: "limit",
        }),
      );
      return;
    }
    for (const line of lines) if (line.trim() !== "") this.backlog.push(line);
    this.admit();
  }

  /** Takes lines from the backlog while fewer than 256 are in flight; pauses reading otherwise. */
  private admit(): void {
    while (this.backlogHead < this.backlog.length && this.inFlight.length < LIMITS.maxInFlight) {
      this.inFlight.push(parseRequest(this.backlog[this.backlogHead++]!));
    }
    if (this.backlogHead === this.backlog.length) {
      this.backlog = [];
      this.backlogHead = 0;
    }
    this.inFlightPeak = Math.max(this.inFlightPeak, this.inFlight.length);
    if (this.backlog.length > 0 || this.inFlight.length >= LIMITS.maxInFlight) this.socket.pause();
    else if (!this.ended) this.socket.resume();
    if (!this.answering && this.inFlight.length > 0) void this.answer();
  }

  private async answer(): Promise<void> {
    this.answering = true;
    while (this.inFlight.length > 0 && !this.ended) {
      const request = this.inFlight[0]!;
      let response: object;
      if (request.error !== undefined) {
        response = { id: request.id, ok: false, error: request.error, code: "bad_request" };
      } else {
        try {
          const result = await this.handler.handle(this, request.op, request.args);
          response = { id: request.id, ok: true, result: result ?? {} };
        } catch (err) {
          response = errorResponse(request.id, err);
        }
      }
      this.send(response);
      const after = this.afterAnswer;
      this.afterAnswer = [];
      for (const fn of after) fn();
      this.inFlight.shift();
      this.admit();
    }
    this.answering = false;
  }

  drop(destroy = true): void {
    if (this.ended) return;
    this.ended = true;
    this.backlog = [];
    this.backlogHead = 0;
    this.inFlight.length = 0;
    if (destroy) this.socket.destroy();
    this.handler.closed(this);
  }
}

/** The unix socket server: at most 1024 connections, the socket owner-only. */
export class SocketServer {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  /** Every socket accepted, refused ones included: closing the server ends each. */
  private readonly sockets = new Set<Socket>();

  constructor(private readonly handler: RequestHandler) {
    this.server = createServer((socket) => this.accept(socket));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    if (this.connections.size >= LIMITS.maxConnections) {
      // Refused: what it sends is thrown away, and it is destroyed once told (or soon after).
      socket.on("error", () => {});
      socket.resume();
      endSocket(
        socket,
        encodeLine({
          id: null,
          ok: false,
          error: `too many connections (${LIMITS.maxConnections}); closed`,
          code: "limit",
        }),
      );
      return;
    }
    const connection = new Connection(socket, {
      handle: (caller, op, args) => this.handler.handle(caller, op, args),
      opened: () => {},
      closed: (caller) => {
        this.connections.delete(connection);
        this.handler.closed(caller);
      },
    });
    this.connections.add(connection);
    this.handler.opened(connection);
  }

  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      // Created owner-only from the start: no moment where another user could connect.
      const oldMask = process.umask(0o177);
      // An accept queue as long as the connection limit: a burst of connects while the daemon is
      // busy waits to be taken in, instead of failing with EAGAIN (the kernel's default is 511).
      this.server.listen({ path, backlog: LIMITS.maxConnections }, () => {
        process.umask(oldMask);
        chmodSync(path, 0o600);
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Takes no new connection from now on; those open go on. */
  stopAccepting(): void {
    if (this.server.listening) this.server.close();
  }

  /** Stops accepting and ends every connection (what was written goes out first, briefly). */
  async close(): Promise<void> {
    this.stopAccepting();
    const sockets = [...this.sockets];
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
    for (const socket of sockets) endSocket(socket);
    await Promise.all(closed);
  }
}
