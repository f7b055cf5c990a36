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
import { DispatchArgs, type ProfilesResult } from "./dispatch.js";
import { EventsArgs, type EventsResult } from "./feed.js";
import { JobRef, Maybe, NoArgs, RequestId } from "./fields.js";
import { LIMITS } from "./limits.js";
import type { NotifyTestResult } from "./notify.js";
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
import { ResumeArgs, type ResumeResult } from "./resume.js";
import type { JobRow, Lifecycle, Restart } from "./rows.js";
import {
  ScheduleAddArgs,
  ScheduleIdArgs,
  type ScheduleResult,
  type ScheduleRunResult,
  type SchedulesResult,
} from "./schedules.js";
import { TranscriptArgs, type TranscriptResult } from "./transcript.js";
import {
  BranchesArgs,
  type BranchesResult,
  DiffArgs,
  type DiffResult,
  MergeArgs,
  type MergeResult,
  RmArgs,
  type RmResult,
} from "./worktrees.js";

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
   * The question the person answers, as the row showed it (null: none). An agent that asks
   * something else by the time the reply comes gets it held, not given as the other's answer.
   */
  question: Maybe(Type.String({ maxLength: LIMITS.question })),
  /**
   * Start the job again for this reply though its command runs anew (an ended job whose row says
   * `restart: "reruns"`); without it such a reply is refused (`ended`) and nothing starts.
   */
  start: Maybe(Type.Boolean()),
});
export type ReplyArgs = Static<typeof ReplyArgs>;

/**
 * A saved reply, a resend of one (`duplicate`), or `/stop`, which is never delivered: the daemon
 * stops the job instead. A terminal agent's reply that came while it asked nothing is `held` (never
 * typed into a question the person has not seen), and so is any agent's answer to a question it no
 * longer asks (`asks: "other"`: it asks something else, or nothing, now); `dropped` answers `held: "drop"`. `started`: the
 * job had ended and the reply started it again (`resumes` or `reruns`, as its row's `restart`);
 * `ended`: started again for the reply, it ended before it asked anything (the reply was not typed).
 */
export type ReplyResult =
  | { seq: number; saved: true; started?: Restart }
  | { held: true; saved: false; duplicate?: true; started?: Restart; asks?: "other" }
  | { ended: Lifecycle; saved: false; started: Restart }
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
 * What an op may do to a session other than its caller: `start` one (a dispatch, a spawn, a
 * respawn), `stop` one, `answer` one in the person's place (a reply, keys typed into its
 * terminal), or `wake` one that has ended by delivering to it (a message starts an ended job).
 * The concierge's connection is held to the person's policy for each (`act` for the first two and
 * `wake`, `answer` for answers); every record says its effects, so a new op cannot be forgotten.
 */
export type OpEffect = "start" | "stop" | "answer" | "wake";

/**
 * An op as the protocol declares it: what it takes (checked before anything runs), what it answers
 * (a type: the daemon's handler must return it), who may call it and what it may do to others.
 */
export interface OpRecord<Args extends TSchema = TSchema> {
  args: Args;
  result: unknown;
  callers: readonly OpCaller[];
  effects: readonly OpEffect[];
  writes: OpWrites;
}

/** An op that does nothing to another session (it reads, or changes only the caller's own). */
const NONE = [] as const;

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
  hello: {
    args: HelloArgs,
    result: answer<HelloResult>(),
    callers: SESSION,
    effects: NONE,
    writes: "logged",
  },
  report: {
    args: ReportArgs,
    result: answer<Record<string, never>>(),
    callers: SESSION,
    effects: NONE,
    writes: "logged",
  },
  ack: {
    args: AckArgs,
    result: answer<Record<string, never>>(),
    callers: SESSION,
    effects: NONE,
    writes: "logged",
  },
  dispatch: {
    args: DispatchArgs,
    result: answer<{ id: string; name: string }>(),
    callers: USER,
    effects: ["start"],
    writes: "kept",
  },
  /** What `dispatch` can start from: roost.json's profiles, read now (a bad file is `bad_request`). */
  profiles: {
    args: NoArgs,
    result: answer<ProfilesResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  reply: {
    args: ReplyArgs,
    result: answer<ReplyResult>(),
    callers: USER,
    effects: ["answer", "start", "stop"],
    writes: "kept",
  },
  list: { args: NoArgs, result: answer<{ rows: JobRow[] }>(), callers: USER, effects: NONE, writes: "none" },
  describe: {
    args: DescribeArgs,
    result: answer<DescribeResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  /** A page of a job's conversation from its agent's own record; a follower asks again from its cursor. */
  transcript: {
    args: TranscriptArgs,
    result: answer<TranscriptResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  subscribe: {
    args: NoArgs,
    result: answer<{ rows: JobRow[] }>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  stop: { args: JobArgs, result: answer<{ id: string }>(), callers: USER, effects: ["stop"], writes: "kept" },
  rm: { args: RmArgs, result: answer<RmResult>(), callers: USER, effects: ["stop"], writes: "kept" },
  /**
   * Makes a job of what the store does not know (`roost doctor` names it): a process the host runs,
   * its row then read from its screen, or a job folder alone, an ended row showing its last screen.
   */
  adopt: {
    args: Type.Object({ id: Type.String({ minLength: 1 }), name: Maybe(Type.String()) }),
    result: answer<{ id: string; name: string; lifecycle: Lifecycle }>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  respawn: {
    args: Type.Object({ id: JobRef, fresh: Maybe(Type.Boolean()) }),
    result: answer<{ id: string }>(),
    callers: USER,
    effects: ["start", "stop"],
    writes: "kept",
  },
  /** The interrupted jobs named (or `all`), each started again as `respawn` starts it. */
  resume: {
    args: ResumeArgs,
    result: answer<ResumeResult>(),
    callers: USER,
    effects: ["start"],
    writes: "kept",
  },
  pin: {
    args: Type.Object({ id: JobRef, pinned: Maybe(Type.Boolean()) }),
    result: answer<{ id: string }>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  rename: {
    args: Type.Object({ id: JobRef, name: Type.String() }),
    result: answer<{ id: string; name: string }>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  reorder: {
    args: Type.Object({ ids: Type.Array(JobRef) }),
    result: answer<Record<string, never>>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  shutdown: {
    args: ShutdownArgs,
    result: answer<Record<string, never>>(),
    callers: USER,
    effects: ["stop"],
    writes: "logged",
  },
  stats: { args: NoArgs, result: answer<StatsResult>(), callers: USER, effects: NONE, writes: "none" },
  /** Runs `notify.command` with a sample event, answered once it has run. */
  "notify-test": {
    args: NoArgs,
    result: answer<NotifyTestResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  diff: { args: DiffArgs, result: answer<DiffResult>(), callers: USER, effects: NONE, writes: "none" },
  merge: { args: MergeArgs, result: answer<MergeResult>(), callers: USER, effects: NONE, writes: "kept" },
  branches: {
    args: BranchesArgs,
    result: answer<BranchesResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  task: { args: TaskArgs, result: answer<TaskResult>(), callers: ANY, effects: ["wake"], writes: "kept" },
  /** The feed carries every tree's messages: the user's and the concierge's, not a session's. */
  events: {
    args: EventsArgs,
    result: answer<EventsResult>(),
    callers: ["user", "concierge"],
    effects: NONE,
    writes: "none",
  },
  schedules: {
    args: NoArgs,
    result: answer<SchedulesResult>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  "schedule-add": {
    args: ScheduleAddArgs,
    result: answer<ScheduleResult>(),
    callers: USER,
    effects: ["start"],
    writes: "kept",
  },
  "schedule-rm": {
    args: ScheduleIdArgs,
    result: answer<{ id: number }>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  "schedule-pause": {
    args: ScheduleIdArgs,
    result: answer<ScheduleResult>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  "schedule-resume": {
    args: ScheduleIdArgs,
    result: answer<ScheduleResult>(),
    callers: USER,
    effects: NONE,
    writes: "kept",
  },
  "schedule-run": {
    args: ScheduleIdArgs,
    result: answer<ScheduleRunResult>(),
    callers: USER,
    effects: ["start"],
    writes: "kept",
  },
  attach: { args: AttachArgs, result: answer<AttachResult>(), callers: USER, effects: NONE, writes: "none" },
  "attach-input": {
    args: AttachInputArgs,
    result: answer<Record<string, never>>(),
    callers: USER,
    effects: ["answer"],
    writes: "none",
  },
  "attach-resize": {
    args: AttachResizeArgs,
    result: answer<Record<string, never>>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  detach: {
    args: JobArgs,
    result: answer<{ detached: boolean }>(),
    callers: USER,
    effects: NONE,
    writes: "none",
  },
  peer_register: {
    args: PeerRegisterArgs,
    result: answer<PeerRegisterResult>(),
    callers: ANY,
    effects: NONE,
    writes: "none",
  },
  peers: { args: NoArgs, result: answer<PeersResult>(), callers: ANY, effects: NONE, writes: "none" },
  send: { args: SendArgs, result: answer<SendResult>(), callers: ANY, effects: ["wake"], writes: "kept" },
  spawn: { args: SpawnArgs, result: answer<SpawnResult>(), callers: ANY, effects: ["start"], writes: "kept" },
  handback: {
    args: HandbackArgs,
    result: answer<HandbackResult>(),
    callers: ANY,
    effects: ["wake"],
    writes: "kept",
  },
  watch: { args: WatchArgs, result: answer<WatchResult>(), callers: ANY, effects: NONE, writes: "kept" },
  concierge: {
    args: ConciergeArgs,
    result: answer<ConciergeStatus>(),
    callers: USER,
    effects: ["start", "stop"],
    writes: "kept",
  },
  "concierge-ask": {
    args: ConciergeAskArgs,
    result: answer<ReplyResult>(),
    callers: USER,
    effects: ["start"],
    writes: "kept",
  },
  "concierge-say": {
    args: ConciergeSayArgs,
    result: answer<Record<string, never>>(),
    callers: CONCIERGE,
    effects: NONE,
    writes: "none",
  },
  "concierge-suggest": {
    args: ConciergeSuggestArgs,
    result: answer<{ id: string }>(),
    callers: CONCIERGE,
    effects: NONE,
    writes: "kept",
  },
  "concierge-policy": {
    args: NoArgs,
    result: answer<ConciergePolicy>(),
    callers: CONCIERGE,
    effects: NONE,
    writes: "none",
  },
  "concierge-reply": {
    args: ConciergeReplyArgs,
    result: answer<ReplyResult>(),
    callers: CONCIERGE,
    effects: ["answer"],
    writes: "kept",
  },
  "concierge-act": {
    args: ConciergeActArgs,
    result: answer<{ id: string; name?: string }>(),
    callers: CONCIERGE,
    effects: ["start", "stop"],
    writes: "kept",
  },
  /** Standing orders: the person's and the concierge's, not a session's. */
  "concierge-order": {
    args: ConciergeOrderArgs,
    result: answer<ConciergeOrderResult>(),
    callers: ["user", "concierge"],
    effects: NONE,
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
export const SESSION_OPS = opsFor("session");

/** Ops for the user's side (the hub, the CLI, scripts); refused on a session's connection. */
export const USER_OPS = opsFor("user");
