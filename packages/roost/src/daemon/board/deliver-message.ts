import { LIMITS, type MessageOutcome, RoostError } from "../../protocol/index.js";
import { deliverEvent, isEnded, type Job, jobRecord } from "../job.js";
import type { OpContext } from "../ops/context.js";

/** What delivering needs: the jobs and a way to start one. */
export type DeliveryContext = Pick<OpContext, "state" | "supervisor">;

import type { StoredReply } from "../store.js";

/**
 * Puts a `message` on a session's queue, as an agent item (acked one by one): sent at once to an
 * agent that takes agent items and is connected, kept for it otherwise, and an ended job is started
 * for it, as a reply would. A stopped job is not woken, nor one with 20 items waiting.
 */
export function deliverMessage(ctx: DeliveryContext, job: Job, text: string, from: string): MessageOutcome {
  const { state, supervisor } = ctx;
  if (job.kind !== "protocol")
    throw new RoostError("unsupported", `${job.name} (${job.id}) is a terminal agent: it takes no messages`);
  if (job.lifecycle === "stopped") return "stopped";
  if (job.pending.filter((r) => r.kind !== undefined).length >= LIMITS.maxPendingAgentItems) return "full";
  const item: StoredReply = { jobId: job.id, seq: job.nextSeq, text, mode: null, kind: "message", from };
  job.nextSeq++;
  job.updatedAt = state.now();
  state.store.addAgentItem(jobRecord(job), item, job.updatedAt);
  job.pending.push(item);
  state.changed(job);
  if (isEnded(job)) {
    job.crashStreak = 0;
    job.error = null;
    void supervisor.start(job);
    return "started";
  }
  if (job.connection && job.report?.agentItems) {
    job.connection.send(deliverEvent(job, item));
    return "delivered";
  }
  return "queued";
}

/** Folds a message to the limit of an agent message, keeping its start. */
export function messageText(text: string): string {
  return text.length <= LIMITS.message ? text : `${text.slice(0, LIMITS.message - 1)}…`;
}
