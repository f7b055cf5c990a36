/**
 * `resume`: the interrupted jobs (their process went down with the process host) started again as
 * a respawn starts them, each taking up its conversation; the answer says which came back and which
 * could not, and why.
 */
import { type Static, Type } from "typebox";
import type { ErrorCode } from "./errors.js";
import { JobRef, Maybe } from "./fields.js";
import { LIMITS } from "./limits.js";
import type { Restart } from "./rows.js";
import type { ResumeRow } from "./usage.js";

export const ResumeArgs = Type.Object({
  /** The jobs to bring back, by id or name (not with `all`). */
  ids: Maybe(Type.Array(JobRef, { maxItems: LIMITS.resumeJobs })),
  /** Every interrupted job. */
  all: Maybe(Type.Boolean()),
});
export type ResumeArgs = Static<typeof ResumeArgs>;

/** A job that came back: whether it took up its conversation is its row's `resume` (null: it does not say). */
export interface ResumedJob {
  id: string;
  name: string;
  restart: Restart;
  resume: ResumeRow | null;
}

/** A job named that did not come back, as it was named (`job`), and why. */
export interface UnresumedJob {
  job: string;
  /** Null when no job is by that name. */
  id: string | null;
  code: ErrorCode;
  error: string;
}

export interface ResumeResult {
  resumed: ResumedJob[];
  notResumed: UnresumedJob[];
}
