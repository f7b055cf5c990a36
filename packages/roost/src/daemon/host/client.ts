/**
 * The daemon's side of the host socket: a ProcessHost that sends requests, matches answers to
 * them, passes events on, and says `lost` when the connection breaks without having been closed.
 *
 * A host that stops answering (stopped, swapped out, wedged) must not hang the daemon's callers:
 * every request has a deadline (past it the caller hears `busy`, and the host, should it wake,
 * drops the request rather than act late), and a heartbeat finds out when the host is silent; while
 * it is, requests are answered `busy` at once. Anything heard from the host ends that.
 */
import { EventEmitter } from "node:events";
import { createConnection, type Socket } from "node:net";
import { processGone } from "../../home/process.js";
import { errorFromWire, RoostError } from "../../protocol/errors.js";
import { encodeLine, LineDecoder, LineTooLongError } from "../../protocol/framing.js";
import type { HostJobInfo, HostSpawnSpec, ProcessHost, ProcessHostEvents, ScreenSnapshot } from "./api.js";
import {
  HOST_MAX_ANSWER_BYTES,
  HOST_PROTOCOL_VERSION,
  type HostEvent,
  type HostOpName,
  type HostOps,
  type HostRequest,
  type HostResponse,
} from "./protocol.js";
import { applyScreenChange } from "./screen-change.js";

const HELLO_TIMEOUT_MS = 10_000;
/** How long a request may wait for its answer before its caller hears `busy`. */
const HOST_REQUEST_DEADLINE_MS = 5000;
/** A shutdown ends every job first (SIGTERM, a grace, SIGKILL). */
const HOST_SHUTDOWN_DEADLINE_MS = 15_000;
/** After a shutdown, how long the host has to exit once it closed the connection. */
const HOST_EXIT_PATIENCE_MS = 5000;
/** How often the host is asked whether it is there, while the connection is quiet. */
const HEARTBEAT_MS = 1000;
/** Silent this long with a question unanswered, the host is unresponsive. */
const HOST_SILENCE_MS = 2500;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class HostClient implements ProcessHost {
  hostPid = 0;
  fresh = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly events = new EventEmitter();
  private readonly decoder = new LineDecoder(HOST_MAX_ANSWER_BYTES);
  /** Set once the connection was closed on purpose: no `lost` then. */
  private closing = false;
  private gone = false;
  private readonly closed: Promise<void>;
  private lastHeardAt = Date.now();
  private pinging = false;
  private silent = false;
  private readonly heartbeat: NodeJS.Timeout;
  /** Each job's last screen told, which the next `screen-change` changes. */
  private readonly screens = new Map<string, ScreenSnapshot>();

  private constructor(private readonly socket: Socket) {
    this.events.setMaxListeners(0);
    socket.on("data", (chunk) => this.received(chunk));
    socket.on("error", () => {});
    this.closed = new Promise((resolve) => socket.once("close", resolve)).then(() => this.disconnected());
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Whether the host answers (false while it has been silent past `HOST_SILENCE_MS`). */
  get responsive(): boolean {
    return !this.silent && !this.gone;
  }

  private beat(): void {
    if (this.gone) return;
    if ((this.pinging || this.pending.size > 0) && Date.now() - this.lastHeardAt > HOST_SILENCE_MS) {
      if (!this.silent) {
        this.silent = true;
        console.error(`roost: the process host (pid ${this.hostPid}) does not answer; requests get busy`);
      }
    }
    if (this.pinging) return;
    this.pinging = true;
    this.send("hello", {}, HOST_SILENCE_MS * 2)
      .catch(() => {})
      .finally(() => {
        this.pinging = false;
      });
  }

  /**
   * Connects to a host's socket and checks it speaks this protocol. `screens: false`: the host tells
   * this connection no job's screens.
   */
  static async connect(socketPath: string, options: { screens?: boolean } = {}): Promise<HostClient> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const socket = createConnection(socketPath);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(socket);
      });
      socket.once("error", reject);
    });
    const client = new HostClient(socket);
    try {
      // Whatever listens there must answer as a host does, and soon.
      const hello = await Promise.race([
        client.request("hello", options.screens === false ? { screens: false } : { screenChanges: true }),
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new RoostError("internal", `no process host answers on ${socketPath}`)),
            HELLO_TIMEOUT_MS,
          ).unref(),
        ),
      ]);
      if (hello.protocol !== HOST_PROTOCOL_VERSION) {
        throw new RoostError(
          "unsupported",
          `the process host speaks protocol ${hello.protocol}, this daemon ${HOST_PROTOCOL_VERSION}`,
        );
      }
      client.hostPid = hello.pid;
      return client;
    } catch (err) {
      client.closing = true;
      socket.destroy();
      throw err;
    }
  }

  spawn(spec: HostSpawnSpec): Promise<HostJobInfo> {
    return this.request("spawn", spec);
  }

  async write(id: string, data: string, key?: string): Promise<void> {
    await this.request("write", { id, data, ...(key !== undefined ? { key } : {}) });
  }

  async resize(id: string, cols: number, rows: number): Promise<void> {
    await this.request("resize", { id, cols, rows });
  }

  async kill(id: string, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await this.request("kill", { id, signal });
  }

  list(): Promise<HostJobInfo[]> {
    return this.request("list", {});
  }

  screen(id: string): Promise<ScreenSnapshot> {
    return this.request("screen", { id });
  }

  serialize(id: string): Promise<string> {
    return this.request("serialize", { id });
  }

  watch(id: string): Promise<string> {
    return this.request("watch", { id });
  }

  async unwatch(id: string): Promise<void> {
    await this.request("unwatch", { id });
  }

  async forget(id: string): Promise<void> {
    await this.request("forget", { id });
  }

  async remove(id: string): Promise<void> {
    await this.request("remove", { id });
  }

  on<E extends keyof ProcessHostEvents>(event: E, listener: ProcessHostEvents[E]): void {
    this.events.on(event, listener);
  }

  off<E extends keyof ProcessHostEvents>(event: E, listener: ProcessHostEvents[E]): void {
    this.events.off(event, listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.socket.end();
    await this.closed;
  }

  async shutdown(): Promise<void> {
    this.closing = true;
    try {
      if (this.silent) throw silentError(this.hostPid);
      await this.send("shutdown", {}, HOST_SHUTDOWN_DEADLINE_MS);
    } catch (err) {
      this.closing = false;
      throw err;
    }
    await this.closed;
    // Ended means gone: the host still closes its files after it closed the connection.
    await processGone(this.hostPid, HOST_EXIT_PATIENCE_MS);
  }

  request<K extends HostOpName>(op: K, args: HostOps[K]["args"]): Promise<HostOps[K]["result"]> {
    if (this.silent && !this.gone) return Promise.reject(silentError(this.hostPid));
    return this.send(op, args, HOST_REQUEST_DEADLINE_MS);
  }

  private send<K extends HostOpName>(
    op: K,
    args: HostOps[K]["args"],
    deadlineMs: number,
  ): Promise<HostOps[K]["result"]> {
    if (this.gone) return Promise.reject(lostError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(silentError(this.hostPid));
      }, deadlineMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
      // Past its deadline the host drops the request instead of acting on it late.
      const request: HostRequest<K> = { id, op, args, deadline: Date.now() + deadlineMs };
      this.socket.write(encodeLine(request));
    });
  }

  private received(chunk: Buffer): void {
    this.lastHeardAt = Date.now();
    if (this.silent) {
      this.silent = false;
      console.error(`roost: the process host (pid ${this.hostPid}) answers again`);
    }
    let lines: string[];
    try {
      lines = this.decoder.push(chunk);
    } catch (err) {
      if (!(err instanceof LineTooLongError)) throw err;
      this.socket.destroy();
      return;
    }
    for (const line of lines) {
      let message: HostResponse | HostEvent;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if ("event" in message) this.dispatch(message);
      else this.answered(message);
    }
  }

  private answered(response: HostResponse): void {
    const pending = response.id === null ? undefined : this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id!);
    clearTimeout(pending.timer);
    if (response.ok) pending.resolve(response.result);
    else pending.reject(errorFromWire(response.code, response.error));
  }

  private dispatch(event: HostEvent): void {
    try {
      if (event.event === "exit") {
        this.screens.delete(event.id);
        this.events.emit("exit", event.id, event.exitCode, event.signal);
      } else if (event.event === "screen") {
        this.screens.set(event.id, event.screen);
        this.events.emit("screen", event.id, event.screen);
      } else if (event.event === "screen-change") {
        const before = this.screens.get(event.id);
        // The host sends a change only after a whole screen: none here means a host gone wrong.
        if (!before) return;
        const screen = applyScreenChange(before, event.change);
        this.screens.set(event.id, screen);
        this.events.emit("screen", event.id, screen);
      } else if (event.event === "output") this.events.emit("output", event.id, event.data);
    } catch (err) {
      // A listener's failure is the listener's: the connection and its other answers go on.
      console.error("process host event listener failed:", err);
    }
  }

  private disconnected(): void {
    this.gone = true;
    clearInterval(this.heartbeat);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(lostError());
    }
    this.pending.clear();
    if (!this.closing) this.events.emit("lost");
  }
}

function silentError(pid: number): RoostError {
  return new RoostError("busy", `the process host (pid ${pid}) does not answer; try again shortly`);
}

function lostError(): RoostError {
  return new RoostError("disconnected", "the connection to the process host is gone");
}
