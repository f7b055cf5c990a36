import { DaemonClient, isDisconnected } from "../client/daemon-client.js";
import { RoostError } from "../protocol/errors.js";
import type { EventMessage } from "../protocol/messages.js";
import type { OpArgs, OpName, OpResult } from "../protocol/ops.js";
import type { JobRow } from "../protocol/rows.js";
import type { ConnectionStatus } from "./hub-state.js";

export interface HubConnectionOptions {
  home: string;
  socketPath?: string;
  /** Start the daemon in the background if none runs, the first time only. */
  startDaemon?: boolean;
  /** The longest wait between two tries to reconnect (default 2 s). */
  maxRetryMs?: number;
}

export interface HubConnectionHandlers {
  status(status: ConnectionStatus, detail: string | null): void;
  /** Every row, after each (re)connection. */
  rows(rows: JobRow[]): void;
  row(row: JobRow): void;
  rowRemoved(id: string): void;
  /** Any other event (`board`, `task`, ...). */
  event(event: EventMessage): void;
  /** Subscribed again after a (re)connection: the moment to retry what the break interrupted. */
  connected(): void;
}

/**
 * The hub's link to the daemon: subscribes, passes rows and events on, and when the daemon goes
 * away says so and reconnects until it is back.
 */
export class HubConnection {
  private client: DaemonClient | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private waiters: ((connected: boolean) => void)[] = [];

  constructor(
    private readonly options: HubConnectionOptions,
    private readonly handlers: HubConnectionHandlers,
  ) {}

  /** Connects (starting the daemon when asked); on failure keeps trying in the background. */
  async start(): Promise<void> {
    this.handlers.status("connecting", null);
    await this.attempt(this.options.startDaemon ?? false, 100);
  }

  get isConnected(): boolean {
    return this.client?.isOpen ?? false;
  }

  /** An op on the current connection; `disconnected` while the daemon is away. */
  call<Op extends OpName>(op: Op, args: OpArgs<Op>): Promise<OpResult<Op>>;
  call(op: string, args?: unknown): Promise<unknown>;
  call(op: string, args?: unknown): Promise<unknown> {
    if (!this.client?.isOpen)
      return Promise.reject(new RoostError("disconnected", "the daemon is not connected"));
    return this.client.call(op, args ?? {});
  }

  /** Resolves when connected (at once if it is), or false after `timeoutMs` or once closed. */
  whenConnected(timeoutMs: number): Promise<boolean> {
    if (this.isConnected) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      timer.unref();
      const done = (connected: boolean) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(connected);
      };
      this.waiters.push(done);
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.client?.close();
    this.client = null;
    for (const done of [...this.waiters]) done(false);
  }

  private async attempt(start: boolean, retryMs: number): Promise<void> {
    if (this.closed) return;
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect({
        home: this.options.home,
        socketPath: this.options.socketPath,
        start,
      });
    } catch (error) {
      this.handlers.status("gone", describe(error));
      this.retry(retryMs);
      return;
    }
    if (this.closed) {
      client.close();
      return;
    }
    client.on("row", (e) => this.handlers.row(e.row));
    client.on("row-removed", (e) => this.handlers.rowRemoved(e.id));
    client.on("event", (e) => {
      if (e.event !== "row" && e.event !== "row-removed") this.handlers.event(e);
    });
    client.on("close", () => {
      if (this.client !== client) return;
      this.client = null;
      if (this.closed) return;
      this.handlers.status("gone", null);
      this.retry(100);
    });
    this.client = client;
    try {
      const { rows } = await client.call("subscribe", {});
      this.handlers.rows(rows);
    } catch (error) {
      if (!isDisconnected(error)) this.handlers.status("gone", describe(error));
      client.close();
      return;
    }
    this.handlers.status("connected", null);
    this.handlers.connected();
    for (const done of [...this.waiters]) done(true);
  }

  private retry(afterMs: number): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const next = Math.min(afterMs * 2, this.options.maxRetryMs ?? 2000);
    this.retryTimer = setTimeout(() => void this.attempt(false, next), afterMs);
  }
}

function describe(error: unknown): string {
  if (error instanceof RoostError && error.code === "disconnected") return "no answer on its socket";
  return error instanceof Error ? error.message : String(error);
}
