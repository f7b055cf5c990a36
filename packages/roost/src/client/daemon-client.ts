import { roostHome, statePaths } from "../home/paths.js";
import { RoostError } from "../protocol/errors.js";
import type { RowEvent, RowRemovedEvent } from "../protocol/events.js";
import type { EventMessage } from "../protocol/messages.js";
import type { OpArgs, OpName, OpResult } from "../protocol/ops.js";
import { Connection } from "./connection.js";

export { RoostError } from "../protocol/errors.js";

export interface DaemonConnectOptions {
  /** The roost home (default `$ROOST_HOME`, else `~/.pi/agent`). */
  home?: string;
  /** The daemon's socket (default: the home's `roost/daemon.sock`). */
  socketPath?: string;
  /** Start the daemon in the background when none runs. */
  start?: boolean;
  /** How long to wait for a daemon being started (default 15 s). */
  startTimeoutMs?: number;
  /**
   * How long an op answered `busy` (nothing done, try again shortly) is tried again before the
   * refusal is passed on (default 5 s; 0: at once).
   */
  busyRetryMs?: number;
}

/** The first wait before trying an op again after `busy`; each next one twice as long, up to 500 ms. */
const BUSY_FIRST_WAIT_MS = 25;

interface DaemonClientEvents {
  row: (event: RowEvent) => void;
  "row-removed": (event: RowRemovedEvent) => void;
  /** Every event the daemon sends, the ones above included. */
  event: (event: EventMessage) => void;
  /** The connection ended. */
  close: () => void;
}

/**
 * A controller's connection to the daemon (the CLI, the hub, scripts): typed ops, the daemon's
 * events, and errors carrying the daemon's code.
 */
export class DaemonClient {
  private readonly listeners: { [E in keyof DaemonClientEvents]: Set<DaemonClientEvents[E]> } = {
    row: new Set(),
    "row-removed": new Set(),
    event: new Set(),
    close: new Set(),
  };
  private connection!: Connection;

  private constructor(
    readonly socketPath: string,
    private readonly busyRetryMs: number,
  ) {}

  /** Connects to the daemon, starting it first when asked and none runs. */
  static async connect(options: DaemonConnectOptions = {}): Promise<DaemonClient> {
    const home = options.home ?? roostHome();
    const socketPath = options.socketPath ?? statePaths(home).socket;
    const client = new DaemonClient(socketPath, options.busyRetryMs ?? 5000);
    try {
      await client.open();
    } catch (error) {
      if (!options.start) throw error;
      // Loaded only now: a client that finds the daemon running starts without child_process.
      const { startDaemonInBackground } = await import("./daemon-start.js");
      await startDaemonInBackground(home, socketPath, options.startTimeoutMs ?? 15_000);
      await client.open();
    }
    return client;
  }

  /** Whether the connection is open. */
  get isOpen(): boolean {
    return this.connection.isOpen;
  }

  /** An op; resolves with its result or rejects with a RoostError carrying the daemon's code. */
  call<Op extends OpName>(op: Op, args: OpArgs<Op>): Promise<OpResult<Op>>;
  call(op: string, args?: unknown): Promise<unknown>;
  async call(op: string, args?: unknown): Promise<unknown> {
    const deadline = Date.now() + this.busyRetryMs;
    for (let wait = BUSY_FIRST_WAIT_MS; ; wait = Math.min(wait * 2, 500)) {
      try {
        return await this.connection.request(op, args ?? {});
      } catch (error) {
        if (!(error instanceof RoostError && error.code === "busy") || Date.now() + wait > deadline)
          throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  on<E extends keyof DaemonClientEvents>(event: E, listener: DaemonClientEvents[E]): this {
    this.listeners[event].add(listener);
    return this;
  }

  off<E extends keyof DaemonClientEvents>(event: E, listener: DaemonClientEvents[E]): this {
    this.listeners[event].delete(listener);
    return this;
  }

  /** The daemon's events as they come, until the connection ends (or the loop is left). */
  async *events(): AsyncGenerator<EventMessage> {
    const buffered: EventMessage[] = [];
    let wake: (() => void) | undefined;
    let ended = !this.isOpen;
    const onEvent = (event: EventMessage) => {
      buffered.push(event);
      wake?.();
    };
    const onClose = () => {
      ended = true;
      wake?.();
    };
    this.on("event", onEvent).on("close", onClose);
    try {
      for (;;) {
        const next = buffered.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      this.off("event", onEvent).off("close", onClose);
    }
  }

  close(): void {
    this.connection.close();
  }

  private async open(): Promise<void> {
    this.connection = await Connection.open(this.socketPath, {
      onEvent: (event) => this.dispatch(event),
      onClose: () => {
        for (const listener of this.listeners.close) listener();
      },
    });
  }

  private dispatch(event: EventMessage): void {
    if (event.event === "row") for (const l of this.listeners.row) l(event as unknown as RowEvent);
    if (event.event === "row-removed") {
      for (const l of this.listeners["row-removed"]) l(event as unknown as RowRemovedEvent);
    }
    for (const l of this.listeners.event) l(event);
  }
}

/** Whether an error means no daemon answered (as opposed to a refusal from one). */
export function isDisconnected(error: unknown): boolean {
  return error instanceof RoostError && error.code === "disconnected";
}
