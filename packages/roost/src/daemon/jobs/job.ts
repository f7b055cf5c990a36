import { type DeliverEvent, ENDED_LIFECYCLES, type Restart, type WorktreeRow } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { DurableRecord, JobRecord, StoredReply } from "../store/store.js";
import type { RunState } from "./run-machine.js";

/** What lives only while the daemon runs: never written to the store. */
export interface JobRuntime {
  /** The connection its reports come through: replies go there. */
  connection: Caller | null;
  /** Replies saved and not yet acked, oldest first. */
  pending: StoredReply[];
  /** What the supervisor is doing with its process (`run-machine.ts`). */
  run: RunState;
  /** Crashes in a row, for the backoff and the give-up. */
  crashStreak: number;
  restartTimer: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
  startedAt: number | null;
  /** Replies on their way to the store (counted against the 50 waiting). */
  savingReplies: number;
  /** What a reply does once it has ended (`restart.ts`), from its profile when it was made. */
  restart: Restart;
  /** Its worktree's figures as git last gave them (null until read, or without a worktree). */
  worktreeRow: WorktreeRow | null;
  /**
   * The token its process was started with while this daemon runs (the store keeps its hash only):
   * a start tried again gives the same one, so a process that did start after all still speaks.
   */
  token: string | null;
}

/**
 * A job as the daemon holds it: its durable `record`, the one thing the store is given, and its
 * runtime state beside it. The record's fields read and write through to the record
 * (`job.lifecycle` is `job.record.lifecycle`), so a runtime field, present or added later, can never
 * be saved by accident.
 */
export type Job = JobRecord & JobRuntime & { readonly record: DurableRecord };

/**
 * Every field of a job's record. Typed over the record's keys: a field added to `JobRecord` must be
 * added here too, or the daemon does not compile.
 */
const RECORD_FIELDS: Record<keyof JobRecord, true> = {
  id: true,
  name: true,
  profile: true,
  kind: true,
  cwd: true,
  task: true,
  command: true,
  env: true,
  tokenHash: true,
  dir: true,
  lifecycle: true,
  report: true,
  reportedName: true,
  screenSummary: true,
  pid: true,
  exitCode: true,
  pinned: true,
  order: true,
  capabilities: true,
  agent: true,
  restarts: true,
  error: true,
  nextSeq: true,
  parentSession: true,
  rootSession: true,
  parentPeer: true,
  undeliveredReport: true,
  parentRuns: true,
  handbackIds: true,
  role: true,
  suggested: true,
  worktree: true,
  conversation: true,
  resumeArgs: true,
  started: true,
  resume: true,
  createdAt: true,
  updatedAt: true,
};

class DaemonJob implements JobRuntime {
  connection: Caller | null = null;
  run: RunState = "idle";
  crashStreak = 0;
  restartTimer: NodeJS.Timeout | null = null;
  killTimer: NodeJS.Timeout | null = null;
  startedAt: number | null = null;
  savingReplies = 0;
  worktreeRow: WorktreeRow | null = null;
  token: string | null = null;

  constructor(
    readonly record: DurableRecord,
    public pending: StoredReply[],
    public restart: Restart,
  ) {}
}

for (const field of Object.keys(RECORD_FIELDS) as (keyof JobRecord)[]) {
  Object.defineProperty(DaemonJob.prototype, field, {
    get(this: DaemonJob) {
      return this.record[field];
    },
    set(this: DaemonJob, value: unknown) {
      (this.record as unknown as Record<string, unknown>)[field] = value;
    },
  });
}

/** A job made from its record (read from the store, or just made), which it owns from now on. */
export function jobFromRecord(record: JobRecord, pending: StoredReply[], restart: Restart): Job {
  // The record's fields are the accessors defined above: a `DaemonJob` is a `Job`.
  return new DaemonJob(record as DurableRecord, pending, restart) as unknown as Job;
}

/** The durable part of a job: what the store keeps. */
export function jobRecord(job: Job): DurableRecord {
  return job.record;
}

export function isEnded(job: Job): boolean {
  return ENDED_LIFECYCLES.has(job.lifecycle);
}

export function isLive(job: Job): boolean {
  return job.lifecycle === "starting" || job.lifecycle === "running";
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
