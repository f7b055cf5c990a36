/**
 * The reply pipeline: a reply's limits, its seq, its commit with its request id, its delivery in
 * seq order among the agent items deferred while it was saved, the feed, and the job woken for
 * it. The reply op, the concierge's answers and the user's undo all take a reply through here.
 */
import { LIMITS, type OpArgs, type ReplyMode, type ReplyResult, RoostError } from "../../protocol/index.js";
import type { BudgetGate } from "../budgets/budget-gate.js";
import { type EventsFeed, type FeedActor, USER } from "../feed/events-feed.js";
import { feedReply } from "../feed/feed-reply.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { deliverEvent, isEnded, type Job, jobRecord } from "../jobs/job.js";
import { answersAnotherQuestion } from "../jobs/stale-answer.js";
import type { Supervisor } from "../jobs/supervisor.js";
import { sendDeferred } from "../peers/deliver-item.js";
import type { StoredReply } from "../store/store.js";
import { dropHeldReply, heldReplyOf, holdReply } from "../terminal/held-replies.js";
import { replyToTerminal } from "../terminal/terminal-replies.js";
import type { TerminalRows } from "../terminal/terminal-rows.js";

/** Keeps the queue in seq order (an agent item may have been queued while this reply was saved). */
function insertBySeq(pending: StoredReply[], reply: StoredReply): void {
  let i = pending.length;
  while (i > 0 && pending[i - 1]!.seq > reply.seq) i--;
  pending.splice(i, 0, reply);
}

/**
 * A job that runs its command anew once ended is started by a reply only when the reply says so:
 * the person sees first that a finished program will run again (`ended` names how to say it).
 */
function refuseUnaskedStart(job: Job, start: boolean): void {
  if (!isEnded(job) || job.restart === "resumes" || start) return;
  throw new RoostError(
    "ended",
    `${job.name} is ${job.lifecycle}, and started again it runs its command anew (it does not resume): ` +
      `a reply starts it only when asked to (roost reply ${job.name} --start TEXT, or confirmed in the hub); nothing was started`,
  );
}

/** How a reply is taken beyond its text and mode. */
export interface TakeOptions {
  requestId?: string;
  /** The question the person saw when replying (undefined: not said). */
  question?: string | null;
  /** Who replies, for the feed: the user, or the concierge in the user's place. */
  by?: FeedActor;
  /** Start a job that runs anew once ended (asked for, never assumed). */
  start?: boolean;
}

export class Replies {
  /** What a reply works with (a terminal agent's is typed with the same). */
  constructor(
    readonly state: DaemonState,
    readonly supervisor: Supervisor,
    readonly feed: EventsFeed,
    readonly terminalRows: TerminalRows,
    readonly budgets: BudgetGate,
  ) {}

  /** The reply op: a held terminal reply sent or dropped, or a text, once per request id. */
  async reply(args: OpArgs<"reply">): Promise<ReplyResult> {
    const { state, supervisor } = this;
    const job = state.resolve(args.id);
    const { text, question } = args;
    const held = args.held ?? undefined;
    const requestId = args.requestId ?? undefined;
    if (held !== undefined) {
      if (job.kind !== "terminal") return this.heldOfProtocolAgent(job, held);
      if (held === "send") this.budgets.refuseSpent(job, "nothing was sent");
      return replyToTerminal(this, job, {
        text: null,
        mode: null,
        requestId,
        held,
        question,
      });
    }
    // Which fields a reply needs depends on `held`: without it, a text (blanks alone say nothing).
    if (typeof text !== "string" || text.trim() === "")
      throw new RoostError("bad_request", "text must be a non-empty string, not only blanks");
    const mode = args.mode ?? null;
    const start = args.start === true;
    if (requestId === undefined) return this.take(job, text, mode, { question, start });

    const seq = state.store.findReplyRequest(job.id, requestId);
    if (seq !== undefined) {
      // The first may still be on its way to the disk: "saved" is said once it is there.
      await state.store.committed();
      if (job.restart === "resumes" || start) void supervisor.wake(job);
      return { duplicate: true, saved: true, seq };
    }
    // The first is still under way (typed into a terminal, waiting for the host): its answer is this one's.
    const key = `reply:${job.id}:${requestId}`;
    const first = state.requestsInFlight.get<ReplyResult>(key);
    if (first) {
      const answer = await first;
      return "seq" in answer ? { duplicate: true, saved: true, seq: answer.seq } : answer;
    }
    return state.requestsInFlight.run(key, () => this.take(job, text, mode, { requestId, question, start }));
  }

  /** A protocol agent's held reply: sent (as the answer to what it asks now) or dropped. */
  private async heldOfProtocolAgent(job: Job, action: "send" | "drop"): Promise<ReplyResult> {
    const held = heldReplyOf(job);
    if (held === null) throw new RoostError("not_found", `${job.name} (${job.id}) holds no reply`);
    if (action === "drop") {
      dropHeldReply(job);
      this.state.changed(job);
      return { dropped: true, saved: false };
    }
    return this.take(job, held.text, null, { requestId: held.requestId ?? undefined });
  }

  /** A reply taken as the user's (the concierge's answers and the user's undo come through it too). */
  async take(
    job: Job,
    text: string,
    mode: ReplyMode | null,
    options: TakeOptions = {},
  ): Promise<ReplyResult> {
    const { state, supervisor } = this;
    const { requestId, question, by = USER, start = false } = options;
    refuseUnaskedStart(job, start);
    if (text.trim() === "/stop") {
      // Never delivered: the daemon stops the job itself.
      await state.waitForHost();
      await supervisor.stop(job);
      return { stopped: true, saved: false };
    }
    this.budgets.refuseSpent(job, "nothing was sent");
    if (text.startsWith("/") && job.connection === null)
      throw new RoostError(
        "unsupported",
        `a command reply (${text.split(/\s/)[0]}) is taken only while the agent is connected; job ${job.id} is not`,
      );
    if (job.kind === "terminal")
      return replyToTerminal(this, job, {
        text,
        mode,
        requestId,
        held: undefined,
        question,
        by,
      });
    if (answersAnotherQuestion(job, question, mode)) {
      holdReply(job, { text, at: state.now(), requestId: requestId ?? null });
      state.changed(job);
      return { held: true, saved: false, asks: "other" };
    }
    if (
      job.pending.filter((r) => r.kind === undefined).length + job.savingReplies >=
      LIMITS.maxPendingReplies
    )
      throw new RoostError("full", `job ${job.id} has ${LIMITS.maxPendingReplies} replies waiting already`);

    const saved = { jobId: job.id, seq: job.nextSeq, text, mode };
    job.nextSeq++;
    job.updatedAt = state.now();
    // Committed (reply, seq, request id and feed line in one transaction) before it is delivered or
    // answered.
    job.savingReplies++;
    try {
      await state.store.together(() => {
        feedReply(this.feed, job, text, mode, by);
        return state.store.addReply(jobRecord(job), saved, requestId, job.updatedAt);
      });
    } catch (err) {
      job.savingReplies--;
      if (job.savingReplies === 0) sendDeferred(job);
      throw err;
    }
    job.savingReplies--;
    state.current(job);
    insertBySeq(job.pending, saved);
    // An answer given now answers what the person saw: a reply held before it is no longer wanted.
    if (mode !== "steer" && heldReplyOf(job) !== null) dropHeldReply(job);
    // In seq order: the agent items deferred while it was saved that come before it, then it, then
    // the rest once no reply is on its way; all before anyone hears of the change (and reacts).
    sendDeferred(job, saved.seq);
    job.connection?.send(deliverEvent(job, saved));
    if (job.savingReplies === 0) sendDeferred(job);
    state.changed(job);
    const started = supervisor.wake(job) ? job.restart : undefined;
    return { seq: saved.seq, saved: true, ...(started ? { started } : {}) };
  }
}
