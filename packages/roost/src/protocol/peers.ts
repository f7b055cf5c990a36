/** Agent-to-agent (M9, M43): peers, messages, spawned children, hand-back, watches. */

import { type Static, Type } from "typebox";
import type { MessageOutcome } from "./board.js";
import { Maybe, RequestId, Text } from "./fields.js";
import { LIMITS } from "./limits.js";
import { REPORT_STATES, type ReportState, type ReportStatus } from "./report.js";

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

export const SendArgs = Type.Object({
  /** A peer's id, or a name unique among the peers in the caller's tree. */
  to: Text({ description: "a peer's id or name" }),
  message: Type.String({ maxLength: LIMITS.message }),
});
export type SendArgs = Static<typeof SendArgs>;

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

export const SpawnArgs = Type.Object({
  task: Type.String({ maxLength: LIMITS.replyText }),
  name: Maybe(Type.String()),
  cwd: Maybe(Type.String()),
  /** The child's profile; the parent's own when left out (a foreground parent must name one). */
  profile: Maybe(Type.String()),
  model: Maybe(Type.String({ maxLength: LIMITS.model })),
  thinking: Maybe(Type.String({ maxLength: LIMITS.thinking })),
  /**
   * The child in a git worktree of its own: a parent in a worktree gives its children one from its
   * branch (false: none); true gives one to a child of a parent without, from its folder's HEAD.
   */
  worktree: Maybe(Type.Boolean()),
});
export type SpawnArgs = Static<typeof SpawnArgs>;

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

export const HandbackArgs = Type.Object({
  /** The run's final text (at most 6000 characters). */
  result: Maybe(Type.String({ maxLength: LIMITS.handbackResult })),
  state: Type.Enum(REPORT_STATES),
  question: Maybe(Type.String({ maxLength: LIMITS.question })),
  error: Maybe(Type.String({ maxLength: LIMITS.error })),
  /** What started the run (default `task`). */
  cause: Maybe(Type.Enum(RUN_CAUSES)),
  /** The same id on a resend (after a lost answer) hands back once. */
  requestId: Type.Optional(RequestId),
});
export type HandbackArgs = Static<typeof HandbackArgs>;

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

export const WatchArgs = Type.Object({
  /** A peer's id or a name `peers` lists. */
  id: Text({ description: "a peer's id or name" }),
  when: Type.Enum(WATCH_WHEN),
});
export type WatchArgs = Static<typeof WatchArgs>;

export interface WatchResult {
  id: string;
  name: string;
  when: WatchWhen;
  /** Already so: the notice comes at once. */
  fired: boolean;
}

export const PeerRegisterArgs = Type.Object({
  /** The session's key (its session file's path); roost's writer lock for it must name `pid`. */
  session: Text({ maxLength: LIMITS.session }),
  name: Text(),
  cwd: Text({ description: "a folder path" }),
  pid: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export type PeerRegisterArgs = Static<typeof PeerRegisterArgs>;

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
  /**
   * Keys a per-key window keeps (senders, trees, texts sent): past it the oldest go, so a flood of
   * unique messages is held in bounded memory (a duplicate of one gone is then delivered).
   */
  windowKeys: 10_000,
  /** Foreground sessions that left, remembered (`not running`, not `not_found`): at most, and how long. */
  goneForegroundKept: 256,
  goneForegroundMs: 60 * 60 * 1000,
  /** Watches per session. */
  watches: 20,
  watchExpiryMs: 12 * 60 * 60 * 1000,
  /** Watches kept in all (sessions come and go; their watches stay until they fire or expire). */
  watchesKept: 1000,
  /** Parent-started runs in a row that report. */
  parentRunsInARow: 3,
  /** Hand-back request ids a child remembers. */
  handbackIdsKept: 20,
} as const;
