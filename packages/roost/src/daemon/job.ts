import type { DeliverEvent, JobRow, Report } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import type { JobRecord, StoredReply } from "./store.js";
import { heldReplyOf } from "./terminal/held-replies.js";
import { screenReportOf } from "./terminal/screen-report.js";

/** A job as the daemon holds it: its record, plus what lives only while the daemon runs. */
export interface Job extends JobRecord {
  /** The connection its reports come through: replies go there. */
  connection: Caller | null;
  /** Replies saved and not yet acked, oldest first. */
  pending: StoredReply[];
  /** The user asked it to stop: its exit makes it `stopped`. */
  stopping: boolean;
  /** Its exit starts it again (respawn). */
  respawning: boolean;
  /** Crashes in a row, for the backoff and the give-up. */
  crashStreak: number;
  restartTimer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  startedAt: number | null;
  /** Replies on their way to the store (counted against the 50 waiting). */
  savingReplies: number;
}

export function jobFromRecord(record: JobRecord, pending: StoredReply[]): Job {
  return {
    ...record,
    connection: null,
    pending,
    stopping: false,
    respawning: false,
    crashStreak: 0,
    restartTimer: null,
    killTimer: null,
    startedAt: null,
    savingReplies: 0,
  };
}

/** The durable part of a job, as the store keeps it. */
export function jobRecord(job: Job): JobRecord {
  const {
    connection: _c,
    pending: _p,
    stopping: _s,
    respawning: _r,
    crashStreak: _k,
    restartTimer: _t,
    killTimer: _kt,
    startedAt: _a,
    savingReplies: _sr,
    ...record
  } = job;
  return record;
}

export function isEnded(job: Job): boolean {
  return job.lifecycle === "reaped" || job.lifecycle === "done" || job.lifecycle === "failed";
}

export function isLive(job: Job): boolean {
  return job.lifecycle === "starting" || job.lifecycle === "running";
}

function rowState(job: Job, report: Report | null): JobRow["state"] {
  if (job.lifecycle === "failed") return "failed";
  if (job.lifecycle === "done") return "done";
  return report?.state ?? "working";
}

/** The row the hub and the CLI show: derived from the job, never stored twice. */
export function toRow(job: Job): JobRow {
  // Until the agent reports (a terminal agent: always), its row is read from its screen.
  const r = job.report ?? screenReportOf(job);
  return {
    id: job.id,
    name: job.name,
    profile: job.profile,
    kind: job.kind,
    cwd: job.cwd,
    task: job.task,
    state: rowState(job, r),
    status: r?.status ?? null,
    waitingFor: r?.waitingFor ?? null,
    summary: r ? r.summary : job.screenSummary,
    question: r?.question ?? null,
    choices: r?.choices ?? [],
    tool: r?.tool ?? null,
    error: job.lifecycle === "failed" && job.error ? job.error : (r?.error ?? job.error),
    model: r?.model ?? null,
    thinking: r?.thinking ?? null,
    context: r?.context ?? null,
    lifecycle: job.lifecycle,
    reported: job.report !== null,
    connected: job.connection !== null,
    pid: job.pid,
    exitCode: job.exitCode,
    pinned: job.pinned,
    order: job.order,
    pending: job.pending.length,
    held: heldRow(job),
    role: job.role ?? null,
    suggested: job.suggested ?? null,
    capabilities: job.capabilities,
    agent: job.agent,
    restarts: job.restarts,
    parentSession: job.parentSession ?? null,
    rootSession: job.rootSession ?? null,
    ...(job.parentPeer ? { parent: job.parentPeer } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

function heldRow(job: Job): JobRow["held"] {
  const held = heldReplyOf(job);
  return held ? { text: held.text, at: held.at } : null;
}

export function deliverEvent(job: Job, reply: StoredReply): DeliverEvent {
  return {
    event: "deliver",
    id: job.id,
    seq: reply.seq,
    text: reply.text,
    ...(reply.mode ? { mode: reply.mode } : {}),
    ...(reply.kind ? { kind: reply.kind } : {}),
    ...(reply.from ? { from: reply.from } : {}),
    ...(reply.kind === "digest"
      ? { relation: "roost", why: reply.relation === "order" ? "order" : "events" }
      : reply.relation
        ? { relation: reply.relation }
        : {}),
  };
}
