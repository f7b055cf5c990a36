import { type DeliverKind, LIMITS, type MessageOutcome, RoostError } from "../../protocol/index.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { deliverEvent, type Job, jobRecord } from "../jobs/job.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { StoredReply } from "../store/store.js";

interface AgentItem {
  kind: DeliverKind;
  /** The sender's name. */
  from: string;
  relation: string;
  /** The framed text (the envelope). */
  text: string;
}

/**
 * Items kept back from a connected agent while a user reply with a lower seq is still on its way to
 * the store: they go once it is there, after it, so that an agent gets its items in seq order.
 */
const deferred = new WeakSet<StoredReply>();

/** Sends the job's deferred items below `seq` (all of them without one), in seq order. */
export function sendDeferred(job: Job, below = Number.POSITIVE_INFINITY): void {
  for (const item of job.pending) {
    if (item.seq >= below || !deferred.has(item)) continue;
    deferred.delete(item);
    job.connection?.send(deliverEvent(job, item));
  }
}

/**
 * Puts an agent item on a job's one queue (its seq shared with the user's replies, acked one by
 * one): sent at once to a connected agent that takes agent items, kept for it otherwise. An ended
 * job is started for it, as a reply would (not for the concierge without `act`: it is queued). A stopped job is not woken: a message is refused
 * (`stopped`), a report waits on its queue (`queued`) for a respawn. `full` at 20 items waiting.
 * The item is sent before anyone hears of the change: what that change sets off (a watch's notice)
 * comes after it. Its write is queued: an op that answers for it waits for it (the store's op
 * writes), and when it fails the item leaves the queue again.
 */
export function deliverItem(
  state: DaemonState,
  supervisor: Supervisor,
  job: Job,
  item: AgentItem,
): MessageOutcome {
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
  state.store.addAgentItem(jobRecord(job), stored, job.updatedAt, () => {
    const at = job.pending.indexOf(stored);
    if (at >= 0) job.pending.splice(at, 1);
    deferred.delete(stored);
    state.changed(job);
  });
  job.pending.push(stored);
  let outcome: MessageOutcome = "queued";
  if (!state.wakesRefused && supervisor.wake(job)) {
    outcome = "started";
  } else if (job.connection && job.report?.agentItems) {
    if (job.savingReplies > 0) deferred.add(stored);
    else job.connection.send(deliverEvent(job, stored));
    outcome = "delivered";
  }
  state.changed(job);
  return outcome;
}
