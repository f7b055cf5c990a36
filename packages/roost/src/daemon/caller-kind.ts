import type { OpCaller } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import type { Job } from "./jobs/job.js";

/** The concierge's job (M44): the one with its role. */
export function isConciergeJob(job: Job): boolean {
  return job.role === "concierge";
}

/**
 * Who a connection speaks as, for the ops' records: a session's, the concierge's (its job's
 * connection), or not said (the user's side, or a session's before its hello or report).
 */
export function callerKind(
  jobs: { get(id: string): Job | undefined },
  caller: Caller,
): OpCaller | "unidentified" {
  if (caller.role === "unidentified") return "unidentified";
  const job = caller.jobId === null ? undefined : jobs.get(caller.jobId);
  return job && isConciergeJob(job) ? "concierge" : "session";
}
