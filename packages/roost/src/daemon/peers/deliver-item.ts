import { type DeliverKind, LIMITS, type MessageOutcome, RoostError } from "../../protocol/index.js";
import { deliverEvent, isEnded, type Job, jobRecord } from "../job.js";
import type { OpContext } from "../ops/context.js";
import type { StoredReply } from "../store.js";

export interface AgentItem {
  kind: DeliverKind;
  /** The sender's name. */
  from: string;
  relation: string;
  /** The framed text (the envelope). */
  text: string;
}

/**
 * Puts an agent item on a job's one queue (its seq shared with the user's replies, acked one by
 * one): sent at once to a connected agent that takes agent items, kept for it otherwise. An ended
 * job is started for it, as a reply would. A stopped job is not woken: a message is refused
 * (`stopped`), a report waits on its queue (`queued`) for a respawn. `full` at 20 items waiting.
 */
export function deliverItem(
  ctx: Pick<OpContext, "state" | "supervisor">,
  job: Job,
  item: AgentItem,
): MessageOutcome {
  const { state, supervisor } = ctx;
  if (job.kind !== "protocol")
    throw new RoostError("unsupported", `${job.name} (${job.id}) is a terminal agent: it takes no messages`);
  if (job.lifecycle === "stopped" && item.kind !== "report") return "stopped";
  if (job.pending.filter((r) => r.kind !== undefined).length >= LIMITS.maxPendingAgentItems) return "full";
  const stored: StoredReply = {
    jobId: job.id,
    seq: job.nextSeq,
    text: item.text,
    mode: null,
    kind: item.kind,
    from: item.from,
    relation: item.relation,
  };
  job.nextSeq++;
  job.updatedAt = state.now();
  state.store.addAgentItem(jobRecord(job), stored, job.updatedAt);
  job.pending.push(stored);
  state.changed(job);
  if (isEnded(job)) {
    job.crashStreak = 0;
    job.error = null;
    void supervisor.start(job);
    return "started";
  }
  if (job.connection && job.report?.agentItems) {
    job.connection.send(deliverEvent(job, stored));
    return "delivered";
  }
  return "queued";
}
