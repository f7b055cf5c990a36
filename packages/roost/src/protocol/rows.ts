import type { JobRole, Suggested } from "./concierge.js";
import type { Report } from "./report.js";
import type { ConversationRow, ResumeRow, TokenUsage } from "./usage.js";
import type { WorktreeRow } from "./worktrees.js";

/**
 * Where a job is in its life. `reaped`: its process ended unseen and it can be started again by a
 * reply. `interrupted`: it was live when the process host went down with it (a reboot, every roost
 * process killed); `resume` or a reply brings it back, taking up its conversation.
 */
export const LIFECYCLES = [
  "starting",
  "running",
  "reaped",
  "interrupted",
  "done",
  "stopped",
  "failed",
] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** Ended, and started again by what comes for it (a reply, an agent item); a stopped job waits for a respawn. */
export const ENDED_LIFECYCLES: ReadonlySet<Lifecycle> = new Set(["reaped", "interrupted", "done", "failed"]);

/** A protocol agent speaks the agent protocol; a terminal agent is read from its screen. */
export type JobKind = "protocol" | "terminal";

/**
 * What a reply does to a job once it has ended (done, failed, reaped, interrupted): `resumes`, started again the
 * agent takes up its conversation and the reply (protocol agents, pi); `reruns`, its command runs
 * anew from the start (terminal agents, one-shot jobs), so a reply starts it only when the person
 * says so (the reply's `start`).
 */
export type Restart = "resumes" | "reruns";

/** A terminal agent's reply that was not typed: it did not ask anything when it came. */
export interface HeldReply {
  text: string;
  /** When it was held (ISO time). */
  at: string;
}

/** What a row shows of the agent's state: its last report's fields, or what its screen says. */
type ReportedState = Pick<
  Report,
  | "state"
  | "status"
  | "waitingFor"
  | "summary"
  | "question"
  | "choices"
  | "tool"
  | "error"
  | "model"
  | "thinking"
  | "context"
>;

/** One row per session, as the hub and the CLI show it. */
export interface JobRow extends ReportedState {
  id: string;
  name: string;
  profile: string;
  kind: JobKind;
  cwd: string;
  task: string | null;
  lifecycle: Lifecycle;
  /** Whether the row comes from the agent's reports (true) or from its terminal (false). */
  reported: boolean;
  /** Whether an agent connection holds the job now. */
  connected: boolean;
  pid: number | null;
  exitCode: number | null;
  pinned: boolean;
  order: number;
  /** What a reply does once it has ended: see `Restart`. */
  restart: Restart;
  /** Replies waiting for the agent's ack. */
  pending: number;
  /** A terminal agent's reply held until the person sends it as the answer to a question, or drops it. */
  held?: HeldReply | null;
  /** The concierge's job says so; every other job has none. */
  role?: JobRole | null;
  /** An answer the concierge suggests while the row waits (cleared when it stops waiting). */
  suggested?: Suggested | null;
  capabilities: string[];
  agent: { name: string; version: string } | null;
  restarts: number;
  /** A spawned child's parent session (a job's id, or a foreground session's key). */
  parentSession?: string | null;
  /** The root of its tree. */
  rootSession?: string | null;
  /** The peer id of the parent that spawned it (absent for a job nobody spawned). */
  parent?: string;
  /** Its git worktree's branch and work (null: it runs in its own folder, no worktree). */
  worktree?: WorktreeRow | null;
  /** Tokens used so far, from its reports (pi) or its program's session record (null: unknown). */
  usage?: TokenUsage | null;
  /** A terminal job's conversation in its program's own record (Claude Code, Codex); absent otherwise. */
  conversation?: ConversationRow | null;
  /** How its last start went, for a job whose program can resume its conversation (null: not started again yet). */
  resume?: ResumeRow | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Whether a row asks the person something now (a question, a dialog): the one meaning of "waiting",
 * counted in the hub's title and visited by Tab. A session idle at its prompt (its task done, or
 * none given yet: `first-prompt`) asks nothing, and a stopped, failed or interrupted job asks
 * nothing any more (what it last asked went with its process).
 */
export function asksPerson(row: Pick<JobRow, "state" | "waitingFor" | "lifecycle">): boolean {
  return (
    row.state === "blocked" &&
    row.waitingFor !== "first-prompt" &&
    row.lifecycle !== "stopped" &&
    row.lifecycle !== "failed" &&
    row.lifecycle !== "interrupted"
  );
}
