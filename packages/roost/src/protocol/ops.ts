import { type Static, type TSchema, Type } from "typebox";
import { AttachArgs, AttachInputArgs, AttachResizeArgs, type AttachResult } from "./attach.js";
import { TaskArgs, type TaskResult } from "./board.js";
import {
  ConciergeActArgs,
  ConciergeArgs,
  ConciergeAskArgs,
  ConciergeOrderArgs,
  type ConciergeOrderResult,
  type ConciergePolicy,
  ConciergeReplyArgs,
  ConciergeSayArgs,
  type ConciergeStatus,
  ConciergeSuggestArgs,
} from "./concierge.js";
import { DescribeArgs, type DescribeResult } from "./describe.js";
import { DispatchArgs } from "./dispatch.js";
import { EventsArgs, type EventsResult } from "./feed.js";
import { JobRef, Maybe, NoArgs, RequestId } from "./fields.js";
import { LIMITS } from "./limits.js";
import {
  HandbackArgs,
  type HandbackResult,
  PeerRegisterArgs,
  type PeerRegisterResult,
  type PeersResult,
  SendArgs,
  type SendResult,
  SpawnArgs,
  type SpawnResult,
  WatchArgs,
  type WatchResult,
} from "./peers.js";
import type { ReportInput } from "./report.js";
import type { JobRow } from "./rows.js";
import {
  ScheduleAddArgs,
  ScheduleIdArgs,
  type ScheduleResult,
  type ScheduleRunResult,
  type SchedulesResult,
} from "./schedules.js";

/** How a reply joins the agent's work: `steer` joins the run under way, `followUp` comes after it. */
export const REPLY_MODES = ["steer", "followUp"] as const;
export type ReplyMode = (typeof REPLY_MODES)[number];

export interface AgentInfo {
  name: string;
  version: string;
}

export const HelloArgs = Type.Object({
  protocol: Type.Integer({ minimum: 1 }),
  agent: Maybe(Type.Object({ name: Maybe(Type.String()), version: Maybe(Type.String()) })),
  capabilities: Maybe(Type.Array(Type.String())),
  /** The job this connection speaks for; with `token`, hello binds the connection to it. */
  id: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
});
export type HelloArgs = Static<typeof HelloArgs>;

export interface HelloResult {
  protocol: number;
  daemon: { name: string; version: string };
  capabilities: string[];
}

/** Authenticates a request about a job. */
const JobAuth = { id: Type.String(), token: Type.String() };
export type JobAuth = { id: string; token: string };

/** `report` is read by `normalizeReport`, which the agent client uses too (cutting, defaults, open fields). */
export const ReportArgs = Type.Object({
  ...JobAuth,
  report: Type.Unsafe<ReportInput>(Type.Object({}, { description: "an object" })),
});

export const AckArgs = Type.Object({
  ...JobAuth,
  seq: Type.Integer({ minimum: 1 }),
  exact: Maybe(Type.Boolean()),
});

export const ReplyArgs = Type.Object({
  /** A job id or a unique name. */
  id: JobRef,
  /** The reply (not with `held`). */
  text: Maybe(Type.String({ maxLength: LIMITS.replyText })),
  mode: Maybe(Type.Enum(REPLY_MODES)),
  requestId: Maybe(RequestId),
  /** A terminal agent's held reply: `send` types it as the answer to what it asks now; `drop` drops it. */
  held: Maybe(Type.Enum(["send", "drop"])),
  /**
   * The question the person answers, as the row showed it (null: none). A terminal agent that asks
   * something else by the time the reply comes gets it held, not typed into the other question.
   */
  question: Maybe(Type.String({ maxLength: LIMITS.question })),
});
export type ReplyArgs = Static<typeof ReplyArgs>;

/**
 * A saved reply, a resend of one (`duplicate`), or `/stop`, which is never delivered: the daemon
 * stops the job instead. A terminal agent's reply that came while it asked nothing is `held` (never
 * typed into a question the person has not seen); `dropped` answers `held: "drop"`.
 */
export type ReplyResult =
  | { seq: number; saved: true }
  | { held: true; saved: false; duplicate?: true }
  | { dropped: true; saved: false }
  | { duplicate: true; saved: true; seq?: number }
  | { stopped: true; saved: false };

export const ShutdownArgs = Type.Object({
  /** End every job and the process host too; without it the jobs keep running in the host. */
  all: Maybe(Type.Boolean()),
});

const JobArgs = Type.Object({ id: JobRef });

/** How the daemon stands: for the CLI, scripts and the bench. */
export interface StatsResult {
  pid: number;
  version: string;
  connections: number;
  jobs: number;
  /** Resident memory of the daemon process, in bytes. */
  rss: number;
  /** The most requests this connection had in flight at once. */
  inFlightPeak: number;
  /** The process host's pid, while the daemon is connected to it. */
  hostPid: number | null;
}

/** Who may call an op: the user's side (the hub, the CLI, scripts), a session's own connection
 * (an agent, a worker, a foreground pi; the concierge's is one too), or the concierge's only. A
 * connection that has not yet said who it is may call the user's ops and the sessions'. */
export type OpCaller = "user" | "session" | "concierge";

const USER = ["user"] as const;
const SESSION = ["session"] as const;
const ANY = ["user", "session"] as const;
const CONCIERGE = ["concierge"] as const;

/**
 * An op as the protocol declares it: what it takes (checked before anything runs), what it answers
 * (a type: the daemon's handler must return it) and who may call it.
 */
export interface OpRecord<Args extends TSchema = TSchema> {
  args: Args;
  result: unknown;
  callers: readonly OpCaller[];
  writes: OpWrites;
}

/**
 * What an op does to the store. `kept`: it answers once its writes are committed, and answers the
 * store's error (its change undone) when they are not. `logged`: its writes are made as they come
 * and a failure is logged: a session's hello, report and ack tell what happened (a session is never
 * refused for the store), and `shutdown` ends the daemon either way (closing the store commits all). `none`: it reads (a write asked by one is logged as the fault it is, and kept as `kept`).
 */
export type OpWrites = "kept" | "logged" | "none";

/** Names an op's result type in its record: a type only, nothing is sent or checked. */
const answer = <Result>() => undefined as Result;

/**
 * Every op, declared once: its argument schema, its result and its callers. The daemon's handler
 * table is typed over it, so a new op is one record here and its handler.
 */
export const OPS = {
  hello: { args: HelloArgs, result: answer<HelloResult>(), callers: SESSION, writes: "logged" },
  report: { args: ReportArgs, result: answer<Record<string, never>>(), callers: SESSION, writes: "logged" },
  ack: { args: AckArgs, result: answer<Record<string, never>>(), callers: SESSION, writes: "logged" },
  dispatch: {
    args: DispatchArgs,
    result: answer<{ id: string; name: string }>(),
    callers: USER,
    writes: "kept",
  },
  reply: { args: ReplyArgs, result: answer<ReplyResult>(), callers: USER, writes: "kept" },
  list: { args: NoArgs, result: answer<{ rows: JobRow[] }>(), callers: USER, writes: "none" },
  describe: { args: DescribeArgs, result: answer<DescribeResult>(), callers: USER, writes: "none" },
  subscribe: { args: NoArgs, result: answer<{ rows: JobRow[] }>(), callers: USER, writes: "none" },
  stop: { args: JobArgs, result: answer<{ id: string }>(), callers: USER, writes: "kept" },
  rm: { args: JobArgs, result: answer<{ id: string }>(), callers: USER, writes: "kept" },
  respawn: { args: JobArgs, result: answer<{ id: string }>(), callers: USER, writes: "kept" },
  pin: {
    args: Type.Object({ id: JobRef, pinned: Maybe(Type.Boolean()) }),
    result: answer<{ id: string }>(),
    callers: USER,
    writes: "kept",
  },
  rename: {
    args: Type.Object({ id: JobRef, name: Type.String() }),
    result: answer<{ id: string; name: string }>(),
    callers: USER,
    writes: "kept",
  },
  reorder: {
    args: Type.Object({ ids: Type.Array(JobRef) }),
    result: answer<Record<string, never>>(),
    callers: USER,
    writes: "kept",
  },
  shutdown: { args: ShutdownArgs, result: answer<Record<string, never>>(), callers: USER, writes: "logged" },
  stats: { args: NoArgs, result: answer<StatsResult>(), callers: USER, writes: "none" },
  task: { args: TaskArgs, result: answer<TaskResult>(), callers: ANY, writes: "kept" },
  /** The feed carries every tree's messages: the user's and the concierge's, not a session's. */
  events: {
    args: EventsArgs,
    result: answer<EventsResult>(),
    callers: ["user", "concierge"],
    writes: "none",
  },
  schedules: { args: NoArgs, result: answer<SchedulesResult>(), callers: USER, writes: "none" },
  "schedule-add": { args: ScheduleAddArgs, result: answer<ScheduleResult>(), callers: USER, writes: "kept" },
  "schedule-rm": { args: ScheduleIdArgs, result: answer<{ id: number }>(), callers: USER, writes: "kept" },
  "schedule-pause": { args: ScheduleIdArgs, result: answer<ScheduleResult>(), callers: USER, writes: "kept" },
  "schedule-resume": {
    args: ScheduleIdArgs,
    result: answer<ScheduleResult>(),
    callers: USER,
    writes: "kept",
  },
  "schedule-run": {
    args: ScheduleIdArgs,
    result: answer<ScheduleRunResult>(),
    callers: USER,
    writes: "kept",
  },
  attach: { args: AttachArgs, result: answer<AttachResult>(), callers: USER, writes: "none" },
  "attach-input": {
    args: AttachInputArgs,
    result: answer<Record<string, never>>(),
    callers: USER,
    writes: "none",
  },
  "attach-resize": {
    args: AttachResizeArgs,
    result: answer<Record<string, never>>(),
    callers: USER,
    writes: "none",
  },
  detach: { args: JobArgs, result: answer<{ detached: boolean }>(), callers: USER, writes: "none" },
  peer_register: {
    args: PeerRegisterArgs,
    result: answer<PeerRegisterResult>(),
    callers: ANY,
    writes: "none",
  },
  peers: { args: NoArgs, result: answer<PeersResult>(), callers: ANY, writes: "none" },
  send: { args: SendArgs, result: answer<SendResult>(), callers: ANY, writes: "kept" },
  spawn: { args: SpawnArgs, result: answer<SpawnResult>(), callers: ANY, writes: "kept" },
  handback: { args: HandbackArgs, result: answer<HandbackResult>(), callers: ANY, writes: "kept" },
  watch: { args: WatchArgs, result: answer<WatchResult>(), callers: ANY, writes: "kept" },
  concierge: { args: ConciergeArgs, result: answer<ConciergeStatus>(), callers: USER, writes: "kept" },
  "concierge-ask": { args: ConciergeAskArgs, result: answer<ReplyResult>(), callers: USER, writes: "kept" },
  "concierge-say": {
    args: ConciergeSayArgs,
    result: answer<Record<string, never>>(),
    callers: CONCIERGE,
    writes: "none",
  },
  "concierge-suggest": {
    args: ConciergeSuggestArgs,
    result: answer<{ id: string }>(),
    callers: CONCIERGE,
    writes: "kept",
  },
  "concierge-policy": { args: NoArgs, result: answer<ConciergePolicy>(), callers: CONCIERGE, writes: "none" },
  "concierge-reply": {
    args: ConciergeReplyArgs,
    result: answer<ReplyResult>(),
    callers: CONCIERGE,
    writes: "kept",
  },
  "concierge-act": {
    args: ConciergeActArgs,
    result: answer<{ id: string; name?: string }>(),
    callers: CONCIERGE,
    writes: "kept",
  },
  /** Standing orders: the person's and the concierge's, not a session's. */
  "concierge-order": {
    args: ConciergeOrderArgs,
    result: answer<ConciergeOrderResult>(),
    callers: ["user", "concierge"],
    writes: "kept",
  },
} as const satisfies Record<string, OpRecord>;

export type OpName = keyof typeof OPS;

/** Every op, its arguments and its result: the one declaration both sides use. */
export type OpMap = {
  [Op in OpName]: { args: Static<(typeof OPS)[Op]["args"]>; result: (typeof OPS)[Op]["result"] };
};
export type OpArgs<Op extends OpName> = OpMap[Op]["args"];
export type OpResult<Op extends OpName> = OpMap[Op]["result"];

function opsFor(only: OpCaller): OpName[] {
  return (Object.keys(OPS) as OpName[]).filter((op) => {
    const callers: readonly OpCaller[] = OPS[op].callers;
    return callers.length === 1 && callers[0] === only;
  });
}

/** Ops only a session's own connection uses. */
export const AGENT_OPS = opsFor("session");

/** Ops for the user's side (the hub, the CLI, scripts); refused on a session's connection. */
export const HUB_OPS = opsFor("user");
