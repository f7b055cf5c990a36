import type { AttachArgs, AttachInputArgs, AttachResizeArgs, AttachResult } from "./attach.js";
import type { TaskArgs, TaskResult } from "./board.js";
import type { DescribeArgs, DescribeResult } from "./describe.js";
import type { DispatchArgs } from "./dispatch.js";
import type { EventsArgs, EventsResult } from "./feed.js";
import type {
  HandbackArgs,
  HandbackResult,
  PeerRegisterArgs,
  PeerRegisterResult,
  PeersResult,
  SendArgs,
  SendResult,
  SpawnArgs,
  SpawnResult,
  WatchArgs,
  WatchResult,
} from "./peers.js";
import type { ReportInput } from "./report.js";
import type { JobRow } from "./rows.js";
import type {
  ScheduleAddArgs,
  ScheduleId,
  ScheduleResult,
  ScheduleRunResult,
  SchedulesResult,
} from "./schedules.js";

/** How a reply joins the agent's work: `steer` joins the run under way, `followUp` comes after it. */
export type ReplyMode = "steer" | "followUp";

export interface AgentInfo {
  name: string;
  version: string;
}

export interface HelloArgs {
  protocol: number;
  agent: AgentInfo;
  capabilities?: string[];
  /** The job this connection speaks for; with `token`, hello binds the connection to it. */
  id?: string;
  token?: string;
}

export interface HelloResult {
  protocol: number;
  daemon: { name: string; version: string };
  capabilities: string[];
}

/** Authenticates a request about a job. */
export interface JobAuth {
  id: string;
  token: string;
}

export interface ReplyArgs {
  /** A job id or a unique name. */
  id: string;
  /** The reply (not with `held`). */
  text?: string;
  mode?: ReplyMode;
  requestId?: string;
  /** A terminal agent's held reply: `send` types it as the answer to what it asks now; `drop` drops it. */
  held?: "send" | "drop";
  /**
   * The question the person answers, as the row showed it (null: none). A terminal agent that asks
   * something else by the time the reply comes gets it held, not typed into the other question.
   */
  question?: string | null;
}

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

export interface ShutdownArgs {
  /** End every job and the process host too; without it the jobs keep running in the host. */
  all?: boolean;
}

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

/** Every op, its arguments and its result: the one declaration both sides use. */
export interface OpMap {
  hello: { args: HelloArgs; result: HelloResult };
  report: { args: JobAuth & { report: ReportInput }; result: Record<string, never> };
  ack: { args: JobAuth & { seq: number; exact?: boolean }; result: Record<string, never> };
  dispatch: { args: DispatchArgs; result: { id: string; name: string } };
  reply: { args: ReplyArgs; result: ReplyResult };
  list: { args: Record<string, never>; result: { rows: JobRow[] } };
  describe: { args: DescribeArgs; result: DescribeResult };
  subscribe: { args: Record<string, never>; result: { rows: JobRow[] } };
  stop: { args: { id: string }; result: { id: string } };
  rm: { args: { id: string }; result: { id: string } };
  respawn: { args: { id: string }; result: { id: string } };
  pin: { args: { id: string; pinned: boolean }; result: { id: string } };
  rename: { args: { id: string; name: string }; result: { id: string; name: string } };
  reorder: { args: { ids: string[] }; result: Record<string, never> };
  shutdown: { args: ShutdownArgs; result: Record<string, never> };
  stats: { args: Record<string, never>; result: StatsResult };
  task: { args: TaskArgs; result: TaskResult };
  events: { args: EventsArgs; result: EventsResult };
  schedules: { args: Record<string, never>; result: SchedulesResult };
  "schedule-add": { args: ScheduleAddArgs; result: ScheduleResult };
  "schedule-rm": { args: { id: ScheduleId }; result: { id: number } };
  "schedule-pause": { args: { id: ScheduleId }; result: ScheduleResult };
  "schedule-resume": { args: { id: ScheduleId }; result: ScheduleResult };
  "schedule-run": { args: { id: ScheduleId }; result: ScheduleRunResult };
  attach: { args: AttachArgs; result: AttachResult };
  "attach-input": { args: AttachInputArgs; result: Record<string, never> };
  "attach-resize": { args: AttachResizeArgs; result: Record<string, never> };
  detach: { args: { id: string }; result: { detached: boolean } };
  peer_register: { args: PeerRegisterArgs; result: PeerRegisterResult };
  peers: { args: Record<string, never>; result: PeersResult };
  send: { args: SendArgs; result: SendResult };
  spawn: { args: SpawnArgs; result: SpawnResult };
  handback: { args: HandbackArgs; result: HandbackResult };
  watch: { args: WatchArgs; result: WatchResult };
}

export type OpName = keyof OpMap;
export type OpArgs<Op extends OpName> = OpMap[Op]["args"];
export type OpResult<Op extends OpName> = OpMap[Op]["result"];

/** Ops a job's own connection uses. */
export const AGENT_OPS = ["hello", "report", "ack"] as const satisfies readonly OpName[];

/** Ops for the user's side (the hub, the CLI, scripts); refused on a session's connection. */
export const HUB_OPS = [
  "dispatch",
  "reply",
  "list",
  "describe",
  "subscribe",
  "stop",
  "rm",
  "respawn",
  "pin",
  "rename",
  "reorder",
  "shutdown",
  "stats",
  "schedules",
  "schedule-add",
  "schedule-rm",
  "schedule-pause",
  "schedule-resume",
  "schedule-run",
  "attach",
  "attach-input",
  "attach-resize",
  "detach",
] as const satisfies readonly OpName[];
