import type { JobIdentity } from "../protocol/environment.js";
import { RoostError } from "../protocol/errors.js";
import type { DeliverEvent } from "../protocol/events.js";
import type { EventMessage } from "../protocol/messages.js";
import type { AgentInfo, HelloArgs, HelloResult, OpArgs, OpName, OpResult } from "../protocol/ops.js";
import { normalizeReport, type Report, type ReportInput } from "../protocol/report.js";
import { PROTOCOL_VERSION } from "../protocol/version.js";
import { type BackoffOptions, backoffDelay } from "./backoff.js";
import { Connection } from "./connection.js";
import { DEFAULT_SUMMARY_INTERVAL_MS, reportUrgency } from "./report-pacing.js";

/** How long close waits for the daemon to answer its last report and what is in flight. */
const CLOSE_TIMEOUT_MS = 5000;

/** Waits for `promise` (its outcome ignored), or `ms` at most. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))),
  ]);
  clearTimeout(timer);
}

export interface ReporterOptions {
  identity: JobIdentity;
  agent: AgentInfo;
  /** What the agent says it does in `hello` (default: report). */
  capabilities?: string[];
  /** A `deliver` event from the daemon (a reply or an agent item). */
  onDeliver?(reply: DeliverEvent): void;
  /** Any other event the daemon sends on the job's connection. */
  onEvent?(event: EventMessage): void;
  /** The daemon refused the job's token: the reporter has stopped speaking for the job. */
  onUnauthorized?(error: RoostError): void;
  /** A connection was made and greeted (`hello` is undefined when the daemon predates it). */
  onConnected?(hello: HelloResult | undefined): void;
  /** A change to the row's running text alone is sent at most this often (default 3 s). */
  summaryIntervalMs?: number;
  backoff?: BackoffOptions;
}

/**
 * The job's voice: connects on the first report, says hello on every connection, sends full
 * reports (a change of state at once, the running text paced), resends the latest report after a
 * reconnect, and reconnects with backoff until closed. An `unauthorized` answer stops it for good.
 */
export class Reporter {
  private latest: Report | undefined;
  private sent: Report | undefined;
  private sentAt = 0;
  private pacedTimer: NodeJS.Timeout | undefined;
  private connection: Connection | undefined;
  private ready = false;
  private connecting = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  private refused: RoostError | undefined;
  private readyWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private wakeRetry: (() => void) | undefined;

  constructor(private readonly options: ReporterOptions) {}

  get identity(): JobIdentity {
    return this.options.identity;
  }

  /** Whether a greeted connection that has carried the latest report is open now. */
  get connected(): boolean {
    return this.ready;
  }

  /** Whether the daemon refused the job's token. */
  get unauthorized(): boolean {
    return this.refused !== undefined;
  }

  /**
   * Sets the agent's state: a full snapshot, the fields left out null. Throws `bad_request` for a
   * field of the wrong type. The first report connects.
   */
  report(input: ReportInput): void {
    if (this.closing || this.refused) return;
    this.latest = normalizeReport(input);
    if (!this.connection && !this.connecting) {
      void this.connectLoop();
      return;
    }
    if (this.ready) this.schedule();
  }

  /** Sends the latest report now if it has not gone yet, and waits for its answer. */
  async flush(): Promise<void> {
    if (!this.ready || !this.latest || reportUrgency(this.latest, this.sent) === "none") return;
    await this.sendLatest();
  }

  /** Any other op on the job's connection; waits for the connection when it is being made. */
  call<Op extends OpName>(op: Op, args: OpArgs<Op>): Promise<OpResult<Op>>;
  call(op: string, args?: unknown): Promise<unknown>;
  async call(op: string, args?: unknown): Promise<unknown> {
    await this.whenReady();
    return this.send(op, args);
  }

  /** Acks a reply on the job's connection; without one the daemon sends it again later. */
  ack(seq: number, exact = false): void {
    if (!this.connection) return;
    const { id, token } = this.options.identity;
    void this.send("ack", exact ? { id, token, seq, exact: true } : { id, token, seq }).catch(() => {});
  }

  /**
   * Sends the latest report, waits for what is in flight (a few seconds at most), and ends the
   * connection. `beforeEnd` runs once the daemon has answered that report.
   */
  close(beforeEnd?: () => void): Promise<void> {
    this.closing ??= this.shutdown(beforeEnd);
    return this.closing;
  }

  private async shutdown(beforeEnd?: () => void): Promise<void> {
    clearTimeout(this.pacedTimer);
    this.pacedTimer = undefined;
    const deadline = Date.now() + CLOSE_TIMEOUT_MS;
    if (this.ready && this.latest) await within(this.sendLatest(), CLOSE_TIMEOUT_MS);
    beforeEnd?.();
    await within(Promise.allSettled([...this.inFlight]), deadline - Date.now());
    this.closed = true;
    this.wakeRetry?.();
    this.rejectWaiters(new RoostError("disconnected", "the reporter is closed"));
    this.connection?.close();
    this.connection = undefined;
    this.ready = false;
  }

  private schedule(): void {
    const latest = this.latest;
    if (!latest) return;
    const urgency = reportUrgency(latest, this.sent);
    if (urgency === "none") return;
    const interval = this.options.summaryIntervalMs ?? DEFAULT_SUMMARY_INTERVAL_MS;
    const wait = this.sentAt + interval - Date.now();
    if (urgency === "now" || wait <= 0) {
      void this.sendLatest().catch(() => {});
      return;
    }
    if (this.pacedTimer) return;
    this.pacedTimer = setTimeout(() => {
      this.pacedTimer = undefined;
      if (this.ready) this.schedule();
    }, wait);
  }

  private sendLatest(): Promise<unknown> {
    clearTimeout(this.pacedTimer);
    this.pacedTimer = undefined;
    const report = this.latest!;
    this.sent = report;
    this.sentAt = Date.now();
    const { id, token } = this.options.identity;
    return this.send("report", { id, token, report });
  }

  private send(op: string, args: unknown): Promise<unknown> {
    if (this.refused) return Promise.reject(this.refused);
    const connection = this.connection;
    if (!connection) return Promise.reject(new RoostError("disconnected", "not connected to the daemon"));
    const request = connection.request(op, args).catch((error: unknown) => {
      if (error instanceof RoostError && error.code === "unauthorized") this.refuse(error);
      throw error;
    });
    this.inFlight.add(request);
    void request.catch(() => {}).finally(() => this.inFlight.delete(request));
    return request;
  }

  private whenReady(): Promise<void> {
    if (this.refused) return Promise.reject(this.refused);
    if (this.closed) return Promise.reject(new RoostError("disconnected", "the reporter is closed"));
    if (this.ready) return Promise.resolve();
    if (!this.latest) {
      return Promise.reject(
        new RoostError("bad_request", "report first: the first report makes the connection"),
      );
    }
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  private async connectLoop(): Promise<void> {
    this.connecting = true;
    for (let attempt = 0; !this.closed && !this.refused; attempt++) {
      try {
        await this.greet();
        this.connecting = false;
        const waiters = this.readyWaiters;
        this.readyWaiters = [];
        for (const waiter of waiters) waiter.resolve();
        // A report made while greeting may be newer than the one the greeting carried.
        this.schedule();
        return;
      } catch (error) {
        this.ready = false;
        const connection = this.connection;
        this.connection = undefined;
        connection?.destroy();
        if (error instanceof RoostError && error.code === "unauthorized") break;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoffDelay(attempt, this.options.backoff));
        this.wakeRetry = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeRetry = undefined;
    }
    this.connecting = false;
  }

  /** Opens a connection, says hello, and sends the latest report through it. */
  private async greet(): Promise<void> {
    const connection = await Connection.open(this.options.identity.socket, {
      onEvent: (event) => {
        if (connection !== this.connection) return;
        if (event.event === "deliver") {
          // A delivery names its job; one for another job is not this agent's.
          if (event.id === undefined || event.id === this.options.identity.id) {
            this.options.onDeliver?.(event as unknown as DeliverEvent);
          }
        } else this.options.onEvent?.(event);
      },
      onClose: () => this.lost(connection),
    });
    if (this.closed) {
      connection.destroy();
      throw new RoostError("disconnected", "the reporter is closed");
    }
    this.connection = connection;
    const { id, token } = this.options.identity;
    const hello: HelloArgs = {
      protocol: PROTOCOL_VERSION,
      agent: this.options.agent,
      capabilities: this.options.capabilities ?? ["report"],
      id,
      token,
    };
    let answer: HelloResult | undefined;
    try {
      answer = (await this.send("hello", hello)) as HelloResult;
    } catch (error) {
      // A daemon from before hello answers bad_request: go on with version 1.
      if (!(error instanceof RoostError && error.code === "bad_request")) throw error;
    }
    await this.sendLatest();
    if (this.connection !== connection || !connection.isOpen) {
      throw new RoostError("disconnected", "the connection to the daemon was lost");
    }
    this.ready = true;
    this.options.onConnected?.(answer);
  }

  private lost(connection: Connection): void {
    if (connection !== this.connection) return;
    this.connection = undefined;
    const wasReady = this.ready;
    this.ready = false;
    this.sent = undefined;
    if (wasReady && !this.closed && !this.refused) void this.connectLoop();
  }

  private refuse(error: RoostError): void {
    if (this.refused) return;
    this.refused = error;
    clearTimeout(this.pacedTimer);
    this.ready = false;
    const connection = this.connection;
    this.connection = undefined;
    connection?.destroy();
    this.wakeRetry?.();
    this.rejectWaiters(error);
    this.options.onUnauthorized?.(error);
  }

  private rejectWaiters(error: Error): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}
