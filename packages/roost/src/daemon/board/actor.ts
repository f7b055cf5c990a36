import { RoostError, type TaskActor } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import { isConciergeJob } from "../caller-kind.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isEnded, type Job } from "../jobs/job.js";
import type { ForegroundPeers } from "../peers/foreground.js";

/**
 * Who acts on the board: the user (the hub's or the CLI's connection), the concierge (the hub's
 * own agent), or a session (a job after its report; a foreground pi once it registers as a peer).
 */
export type BoardActor =
  | { kind: "user" }
  | { kind: "concierge"; id: string; name: string }
  | { kind: "session"; id: string; name: string };

/** The user and the concierge run the board; sessions work on it. */
export function runsTheBoard(actor: BoardActor): boolean {
  return actor.kind === "user" || actor.kind === "concierge";
}

export function actorLabel(actor: BoardActor): TaskActor {
  if (actor.kind === "user") return { who: "user", whoId: null };
  if (actor.kind === "concierge") return { who: "concierge", whoId: actor.id };
  return { who: actor.name, whoId: actor.id };
}

/** Whether a job's session can still hold a claim: one failed, stopped or removed holds nothing. */
export function keepsClaims(job: Job | undefined): boolean {
  return job !== undefined && job.lifecycle !== "failed" && job.lifecycle !== "stopped";
}

/**
 * The actor a connection speaks as. A session's connection counts once its report has been taken
 * (before that, or for a job that has ended, it is `unauthorized`); any other connection is the
 * user's.
 */
export function actorFor(state: DaemonState, caller: Caller, foreground: ForegroundPeers): BoardActor {
  if (caller.role !== "session") return { kind: "user" };
  const peer = caller.jobId === null ? foreground.byCaller(caller) : undefined;
  if (peer) return { kind: "session", id: peer.id, name: peer.name };
  const job = caller.jobId === null ? undefined : state.jobs.get(caller.jobId);
  if (!job || job.connection !== caller)
    throw new RoostError(
      "unauthorized",
      "report first: the board is open to a job's connection after its report",
    );
  if (isEnded(job) || job.lifecycle === "stopped")
    throw new RoostError("unauthorized", `job ${job.id} has ended (${job.lifecycle})`);
  if (isConciergeJob(job)) return { kind: "concierge", id: job.id, name: job.name };
  return { kind: "session", id: job.id, name: job.name };
}
