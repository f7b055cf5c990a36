import { LIMITS, type ReplyMode, type ReplyResult, RoostError } from "../../protocol/index.js";
import { deliverEvent, isEnded, type Job, jobRecord } from "../job.js";
import type { StoredReply } from "../store.js";
import type { Supervisor } from "../supervisor.js";
import { terminalRowsOf } from "../terminal/terminal-rows.js";
import { typeInto } from "../terminal/typing.js";
import { optionalRequestId, optionalString } from "./args.js";
import type { OpContext, OpHandler } from "./context.js";

function readMode(args: Record<string, unknown>): ReplyMode | null {
  const mode = optionalString(args, "mode");
  if (mode === undefined) return null;
  if (mode !== "steer" && mode !== "followUp")
    throw new RoostError("bad_request", 'mode must be "steer" or "followUp"');
  return mode;
}

/**
 * A reply to an ended job (reaped, done, failed) starts it again. A stopped job stays stopped:
 * the user stopped it, so its reply waits for a respawn instead of undoing the stop.
 */
function startIfEnded(supervisor: Supervisor, job: Job): void {
  if (isEnded(job)) {
    job.crashStreak = 0;
    job.error = null;
    void supervisor.start(job);
  }
}

/** The user's reply in the events feed: `reply`, `steer` or `typed` (into a terminal), to whom, and its start. */
function feedReply(ctx: OpContext, job: Job, text: string, mode: ReplyMode | null): void {
  ctx.feed.add({
    kind: "reply",
    why: mode === "steer" ? "steer" : job.kind === "terminal" ? "typed" : "reply",
    text: `${job.name}: ${text.replace(/\s+/g, " ").slice(0, 120)}`,
    who: "user",
    whoId: null,
    jobs: [job.id],
  });
}

/**
 * Why a terminal job cannot take a typed reply now, or null when it can. Never `busy`: a client
 * tries `busy` again, and each try would start an ended job once more.
 */
function notTakingReplies(job: Job, startedFor: { was: string; restarts: number } | null): string | null {
  if (job.lifecycle === "running" && (startedFor === null || job.restarts === startedFor.restarts))
    return null;
  const exit = job.exitCode !== null ? ` (exit code ${job.exitCode})` : "";
  const last = job.screenSummary ? `; its last line: ${job.screenSummary}` : "";
  if (startedFor !== null)
    return `${job.name} was ${startedFor.was}; it was started again for this reply but did not come up${exit}${last}; the reply was not typed`;
  return `${job.name} is ${job.lifecycle}${job.error ? ` (${job.error})` : ""}${last}; the reply was not typed`;
}

/**
 * A terminal agent's reply is typed into its terminal (an ended job is started first, once); its
 * request id is kept just after it is typed.
 */
async function typeReply(ctx: OpContext, job: Job, text: string, requestId: string | undefined) {
  const { state, supervisor } = ctx;
  const rows = terminalRowsOf(state);
  let startedFor: { was: string; restarts: number } | null = null;
  if (isEnded(job)) {
    startedFor = { was: job.lifecycle, restarts: job.restarts };
    job.crashStreak = 0;
    job.error = null;
    await supervisor.start(job);
  }
  if (job.lifecycle === "stopped")
    throw new RoostError("unsupported", `job ${job.id} is stopped; respawn it to reply`);
  // A job coming up takes it once the program is ready for it, not into a terminal nobody reads yet.
  if (startedFor !== null || job.lifecycle === "starting") {
    if (job.lifecycle === "running" || job.lifecycle === "starting") await rows.whenReady(job);
  }
  const refusal = notTakingReplies(job, startedFor);
  if (refusal !== null) throw new RoostError("unsupported", refusal);
  await typeInto(await state.waitForHost(), job, text, rows);
  const seq = job.nextSeq++;
  await state.store.addTypedReply(jobRecord(job), seq, requestId);
  feedReply(ctx, job, text, null);
  return { seq, saved: true as const };
}

/** Keeps the queue in seq order (an agent item may have been queued while this reply was saved). */
function insertBySeq(pending: StoredReply[], reply: StoredReply): void {
  let i = pending.length;
  while (i > 0 && pending[i - 1]!.seq > reply.seq) i--;
  pending.splice(i, 0, reply);
}

export const reply: OpHandler = async (ctx, _caller, args): Promise<ReplyResult> => {
  const { state, supervisor } = ctx;
  const job = state.resolve(args.id);
  const text = args.text;
  if (typeof text !== "string" || text === "")
    throw new RoostError("bad_request", "text must be a non-empty string");
  if (text.length > LIMITS.replyText)
    throw new RoostError("bad_request", `text is longer than ${LIMITS.replyText} characters`);
  const mode = readMode(args);
  const requestId = optionalRequestId(args);

  if (requestId !== undefined) {
    const seq = state.store.findReplyRequest(job.id, requestId);
    if (seq !== undefined) {
      // The first may still be on its way to the disk: "saved" is said once it is there.
      await state.store.committed();
      startIfEnded(supervisor, job);
      return { duplicate: true, saved: true, seq };
    }
  }
  if (text.trim() === "/stop") {
    // Never delivered: the daemon stops the job itself.
    await state.waitForHost();
    await supervisor.stop(job);
    return { stopped: true, saved: false };
  }
  if (text.startsWith("/") && job.connection === null)
    throw new RoostError(
      "unsupported",
      `a command reply (${text.split(/\s/)[0]}) is taken only while the agent is connected; job ${job.id} is not`,
    );
  if (job.kind === "terminal") return typeReply(ctx, job, text, requestId);
  if (job.pending.filter((r) => r.kind === undefined).length + job.savingReplies >= LIMITS.maxPendingReplies)
    throw new RoostError("full", `job ${job.id} has ${LIMITS.maxPendingReplies} replies waiting already`);

  const saved = { jobId: job.id, seq: job.nextSeq, text, mode };
  job.nextSeq++;
  job.updatedAt = state.now();
  // Committed (reply, seq and request id in one transaction) before it is delivered or answered.
  job.savingReplies++;
  try {
    await state.store.addReply(jobRecord(job), saved, requestId, job.updatedAt);
  } finally {
    job.savingReplies--;
  }
  if (state.jobs.get(job.id) !== job) throw new RoostError("not_found", `job ${job.id} was removed`);
  insertBySeq(job.pending, saved);
  state.changed(job);
  feedReply(ctx, job, text, mode);
  job.connection?.send(deliverEvent(job, saved));
  startIfEnded(supervisor, job);
  return { seq: saved.seq, saved: true };
};
