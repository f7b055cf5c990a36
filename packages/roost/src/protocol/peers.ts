/** Agent-to-agent (M9, M43): peers, messages, spawned children, hand-back, watches. */

import type { MessageOutcome } from "./board.js";
import type { ReportState, ReportStatus } from "./report.js";

/** How a peer stands to the caller: its tree (same root) or outside it. */
export const RELATIONS = ["parent", "child", "sibling", "tree", "external"] as const;
export type Relation = (typeof RELATIONS)[number];

/** A session the caller may reach: a job, or a connected foreground session (id `f` + 7 hex). */
export interface PeerInfo {
  id: string;
  name: string;
  relation: Relation;
  /** `job` or `foreground`. */
  kind: "job" | "foreground";
  state: ReportState | "ended";
  status: ReportStatus | null;
  summary: string | null;
  question: string | null;
  cwd: string;
}

export interface PeersResult {
  peers: PeerInfo[];
}

export interface SendArgs {
  /** A peer's id, or a name unique among the peers in the caller's tree. */
  to: string;
  message: string;
}

/**
 * How a message went: the outcomes a delivery has, `waiting on a dialog` (queued; the receiver
 * has a dialog open), `not running` (a foreground session that is not connected), and `duplicate`
 * (the same text to the same session within a minute: not delivered).
 */
export type SendOutcome = MessageOutcome | "waiting on a dialog" | "duplicate";

export interface SendResult {
  outcome: SendOutcome;
  id: string;
  name: string;
  relation: Relation;
}

export interface SpawnArgs {
  task: string;
  name?: string;
  cwd?: string;
  /** The child's profile; the parent's own when left out (a foreground parent must name one). */
  profile?: string;
  model?: string;
  thinking?: string;
}

export interface SpawnResult {
  id: string;
  name: string;
  /** Says that the child's report will arrive by itself. */
  note: string;
}

/**
 * What started the run a hand-back is about, as the worker saw it: its task, a user reply or
 * command line input, a message from its parent, or from another agent.
 */
export const RUN_CAUSES = ["task", "user", "parent", "agent"] as const;
export type RunCause = (typeof RUN_CAUSES)[number];

export interface HandbackArgs {
  /** The run's final text (at most 6000 characters). */
  result?: string | null;
  state: ReportState;
  question?: string | null;
  error?: string | null;
  /** What started the run (default `task`). */
  cause?: RunCause;
  /** The same id on a resend (after a lost answer) hands back once. 1-64 of `A-Z a-z 0-9 _ . : -`. */
  requestId?: string;
}

/**
 * `delivered`, `queued`, `started`: the parent has it. `kept`: no parent to take it now; it is
 * kept on the child and sent when the parent is back. `skipped`: the run was not one to report
 * (another agent started it, or its parent did more than 3 times in a row).
 */
export type HandbackOutcome = "delivered" | "queued" | "started" | "kept" | "skipped";

export interface HandbackResult {
  outcome: HandbackOutcome;
  duplicate?: boolean;
}

export const WATCH_WHEN = ["idle", "ended"] as const;
export type WatchWhen = (typeof WATCH_WHEN)[number];

export interface WatchArgs {
  /** A peer's id or a name `peers` lists. */
  id: string;
  when: WatchWhen;
}

export interface WatchResult {
  id: string;
  name: string;
  when: WatchWhen;
  /** Already so: the notice comes at once. */
  fired: boolean;
}

export interface PeerRegisterArgs {
  /** The session's key (its session file's path); roost's writer lock for it must name `pid`. */
  session: string;
  name: string;
  cwd: string;
  pid: number;
}

export interface PeerRegisterResult {
  id: string;
  name: string;
}

/** The spec's agent-to-agent limits; the caps can be lowered or raised in the user's roost.json. */
export const PEER_LIMITS = {
  /** `agentMaxDepth`: how deep a tree grows below its root. */
  depth: 3,
  /** `agentMaxChildren`: live children per parent. */
  children: 8,
  /** `agentMaxTreeSessions`: live sessions per tree, its root included. */
  tree: 16,
  /** `agentMaxSpawned`: live spawned sessions overall. */
  spawned: 32,
  /** `agentSpawnsPerMinute`: spawns per tree a minute. */
  spawnsPerMinute: 10,
  /** Messages a minute per sender. */
  messagesPerMinute: 30,
  /** The same text to the same session within this is a duplicate. */
  duplicateWindowMs: 60_000,
  /** Watches per session. */
  watches: 20,
  watchExpiryMs: 12 * 60 * 60 * 1000,
  /** Parent-started runs in a row that report. */
  parentRunsInARow: 3,
  /** Hand-back request ids a child remembers. */
  handbackIdsKept: 20,
} as const;

/** The folder (in roost's state folder) of the foreground sessions' writer locks. */
export const WRITER_LOCK_DIR = "session-locks";
