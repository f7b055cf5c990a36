import { randomBytes } from "node:crypto";
import { RoostError } from "../protocol/errors.js";
import type {
  HandbackArgs,
  HandbackResult,
  PeersResult,
  SendResult,
  SpawnArgs,
  SpawnResult,
  WatchResult,
  WatchWhen,
} from "../protocol/peers.js";

/** How long a hand-back is sent again (same request id) while the daemon is away. */
const HANDBACK_RETRY_MS = 60_000;

export type PeerCall = (op: string, args: unknown) => Promise<unknown>;

/** The hand-back's report: the run's result and state (what started it: `cause`, default `task`). */
export type HandbackReport = Omit<HandbackArgs, "requestId">;

/**
 * The agent-to-agent ops on a session's connection (a job's after its report, or a registered
 * foreground session's): one implementation for RoostAgent and ForegroundPeer.
 */
export class PeerOps {
  constructor(private readonly call: PeerCall) {}

  /** The sessions this one may reach: id, name, relation, state, status, summary, question, cwd. */
  async peers(): Promise<PeersResult> {
    return (await this.call("peers", {})) as PeersResult;
  }

  /** A message to a peer (an id, or a name unique in the tree); `outcome` says how it went. */
  async send(to: string, message: string): Promise<SendResult> {
    return (await this.call("send", { to, message })) as SendResult;
  }

  /** A child session with a task: its report comes by itself (as a `report` item). */
  async spawn(task: string, options: Omit<SpawnArgs, "task"> = {}): Promise<SpawnResult> {
    return (await this.call("spawn", { task, ...options })) as SpawnResult;
  }

  /** Tells once when that session is next idle, or has ended (a `notice` item). */
  async watch(id: string, when: WatchWhen): Promise<WatchResult> {
    return (await this.call("watch", { id, when })) as WatchResult;
  }

  /**
   * A spawned child's report to its parent. Sent again with the same request id while the daemon
   * is away (for up to a minute), so the parent gets it once.
   */
  async handback(report: HandbackReport): Promise<HandbackResult> {
    const requestId = randomBytes(12).toString("base64url");
    const deadline = Date.now() + HANDBACK_RETRY_MS;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      try {
        return (await this.call("handback", { ...report, requestId })) as HandbackResult;
      } catch (error) {
        const retry = error instanceof RoostError && (error.code === "disconnected" || error.code === "busy");
        if (!retry || Date.now() + wait > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
