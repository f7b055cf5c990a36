import type { TaskId, TaskResult } from "../protocol/board.js";
import { type JobIdentity, jobIdentityFromEnv } from "../protocol/environment.js";
import type { RoostError } from "../protocol/errors.js";
import type { HelloResult, OpArgs, OpName, OpResult } from "../protocol/ops.js";
import type {
  HandbackResult,
  PeersResult,
  SendResult,
  SpawnArgs,
  SpawnResult,
  WatchResult,
  WatchWhen,
} from "../protocol/peers.js";
import type { ReportInput } from "../protocol/report.js";
import type { BackoffOptions } from "./backoff.js";
import { FinishedLedger } from "./finished-replies.js";
import { type HandbackReport, PeerOps } from "./peers.js";
import { type ReplyHandler, ReplyQueue } from "./reply-queue.js";
import { Reporter } from "./reporter.js";

export type { BoardTask, TaskResult } from "../protocol/board.js";
export { RoostError } from "../protocol/errors.js";
export type { DeliverEvent as AgentReply } from "../protocol/events.js";
export type { Report, ReportInput } from "../protocol/report.js";
export { AGENT_STATE_FILE, FinishedLedger } from "./finished-replies.js";
export { type HandbackReport, PeerOps } from "./peers.js";
export { type ReplyHandler, ReplyQueue, type ReplyQueueOptions } from "./reply-queue.js";
export { Reporter, type ReporterOptions } from "./reporter.js";

export interface RoostAgentOptions {
  name: string;
  version: string;
  /** What the agent does, said in `hello` (default: report, and replies when it takes them). */
  capabilities?: string[];
  /** Takes each reply once, in order, one at a time; the reply is acked when it returns. */
  onReply?: ReplyHandler;
  /**
   * A handler threw (the reply counts as handled), or the daemon refused the job's token. Default:
   * said on stderr.
   */
  onError?(error: unknown): void;
  /** A connection was made, greeted and given the latest report (`hello` undefined: an older daemon). */
  onConnected?(hello: HelloResult | undefined): void;
  /** Where the job's identity is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** A change to the row's running text alone is sent at most this often (default 3 s). */
  summaryIntervalMs?: number;
  backoff?: BackoffOptions;
}

/**
 * An agent that roost runs: reports its state and takes the user's replies. Made from the job's
 * environment; outside a job there is none.
 */
export class RoostAgent {
  private readonly reporter: Reporter;
  private readonly replies: ReplyQueue | undefined;
  private readonly peerOps = new PeerOps((op, args) => this.call(op, args));

  private constructor(
    readonly identity: JobIdentity,
    options: RoostAgentOptions,
  ) {
    const onReply = options.onReply;
    // Said on stderr by default: a handler's failure must not pass unnoticed.
    const onError = options.onError ?? ((error: unknown) => console.error("roost agent:", error));
    this.reporter = new Reporter({
      identity,
      agent: { name: options.name, version: options.version },
      capabilities: options.capabilities ?? (onReply ? ["report", "replies"] : ["report"]),
      summaryIntervalMs: options.summaryIntervalMs,
      backoff: options.backoff,
      onDeliver: (reply) => this.replies?.offer(reply),
      onConnected: options.onConnected,
      onUnauthorized: (error: RoostError) => {
        this.replies?.stop();
        onError(error);
      },
    });
    this.replies = onReply
      ? new ReplyQueue({
          handler: onReply,
          ledger: new FinishedLedger(identity.dir),
          ack: (seq, exact) => this.reporter.ack(seq, exact),
          onHandlerError: onError,
        })
      : undefined;
  }

  /** The agent for the job this process runs as, or undefined outside a job. */
  static fromEnv(options: RoostAgentOptions): RoostAgent | undefined {
    const identity = jobIdentityFromEnv(options.env ?? process.env);
    return identity ? new RoostAgent(identity, options) : undefined;
  }

  /** Whether the job's connection is up now. */
  get connected(): boolean {
    return this.reporter.connected;
  }

  /**
   * Sets the row: a full snapshot, what is left out null. A change of state goes at once, the
   * running text at most every few seconds. The first report connects; replies start after it.
   */
  report(input: ReportInput): void {
    this.reporter.report(input);
  }

  /** Any other op on the job's connection, after the first report. A refusal is a RoostError. */
  call<Op extends OpName>(op: Op, args: OpArgs<Op>): Promise<OpResult<Op>>;
  call(op: string, args?: unknown): Promise<unknown>;
  call(op: string, args?: unknown): Promise<unknown> {
    return this.reporter.call(op, args);
  }

  /** The shared task board (M47), oldest first. */
  tasks(): Promise<TaskResult> {
    return this.call("task", { action: "list" });
  }

  /** Takes a task: `blocked` while one it waits on is open, `conflict` while another session holds it. */
  claimTask(id: TaskId): Promise<TaskResult> {
    return this.call("task", { action: "claim", id });
  }

  /** Marks a task this agent holds done, with what came of it. */
  taskDone(id: TaskId, result?: string): Promise<TaskResult> {
    return this.call("task", result === undefined ? { action: "done", id } : { action: "done", id, result });
  }

  /** Gives a task this agent holds back to the board. */
  releaseTask(id: TaskId): Promise<TaskResult> {
    return this.call("task", { action: "release", id });
  }

  /** Puts a new task on the board; `after` names tasks that must be done (or dropped) first. */
  addTask(title: string, options: { detail?: string; after?: TaskId[] } = {}): Promise<TaskResult> {
    return this.call("task", { action: "add", title, ...options });
  }

  /** The sessions this agent may reach (agent-to-agent, M9). */
  peers(): Promise<PeersResult> {
    return this.peerOps.peers();
  }

  /** A message to a peer (an id, or a name unique in the tree). */
  send(to: string, message: string): Promise<SendResult> {
    return this.peerOps.send(to, message);
  }

  /** A child job with a task; its report comes by itself as a `report` item. */
  spawn(task: string, options: Omit<SpawnArgs, "task"> = {}): Promise<SpawnResult> {
    return this.peerOps.spawn(task, options);
  }

  /** A spawned child's report to its parent, taken once even when sent again after a lost answer. */
  handback(report: HandbackReport): Promise<HandbackResult> {
    return this.peerOps.handback(report);
  }

  /** A `notice` item once that session is next idle, or has ended. */
  watch(id: string, when: WatchWhen): Promise<WatchResult> {
    return this.peerOps.watch(id, when);
  }

  /**
   * Sends the latest report and ends the connection. A reply whose handler is still running is
   * acked only if it finishes before the daemon has answered that report; otherwise it comes again
   * on the next start. So a handler that ends the agent calls it without awaiting it and returns.
   */
  async close(): Promise<void> {
    this.replies?.hold();
    await this.reporter.close(() => this.replies?.stop());
    this.replies?.stop();
  }
}
