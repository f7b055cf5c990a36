/**
 * Replies to terminal agents. A reply is typed only as the answer to what the agent shows now: a
 * dialog's option is chosen by its keys (`choosing.ts`), text is typed at its input prompt or an open
 * question (`typing.ts`). A reply that comes while the agent asks nothing is held (`held-replies.ts`)
 * and typed only when the person sends it (`held: "send"`) as the answer to what it asks then. A
 * dispatched task waits for the agent's input prompt, never typed into a dialog.
 */
import { type ReplyMode, type ReplyResult, RoostError } from "../../protocol/index.js";
import type { EventsFeed, FeedActor } from "../feed/events-feed.js";
import { feedReply } from "../feed/feed-reply.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isEnded, type Job, jobRecord } from "../jobs/job.js";
import type { Supervisor } from "../jobs/supervisor.js";
import { choiceIndex, choose } from "./choosing.js";
import { dropHeldReply, heldReplyOf, holdReply } from "./held-replies.js";
import type { Settled, TerminalRows } from "./terminal-rows.js";
import { typeText } from "./typing.js";

export interface TerminalReply {
  text: string | null;
  mode: ReplyMode | null;
  requestId: string | undefined;
  held: "send" | "drop" | undefined;
  /** The question the person saw when replying (undefined: not said). */
  question: string | null | undefined;
  /** Who replies, for the feed: the user, or the concierge in the user's place. */
  by?: FeedActor;
}

/** One reply at a time per job: each reads the screen the one before it left. */
const queues = new WeakMap<Job, Promise<unknown>>();

function oneAtATime<T>(job: Job, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(job) ?? Promise.resolve()).then(work, work);
  queues.set(
    job,
    result.catch(() => {}),
  );
  return result;
}

/** What typing a reply works with. */
export interface TerminalReplyDeps {
  state: DaemonState;
  supervisor: Supervisor;
  feed: EventsFeed;
  terminalRows: TerminalRows;
}

export function replyToTerminal(
  ctx: TerminalReplyDeps,
  job: Job,
  reply: TerminalReply,
): Promise<ReplyResult> {
  if (reply.mode === "steer")
    throw new RoostError(
      "unsupported",
      `job ${job.id} is a terminal agent: a reply is typed as its next input; steer is for agents that speak the protocol`,
    );
  return oneAtATime(job, () => typeReply(ctx, job, reply));
}

async function typeReply(ctx: TerminalReplyDeps, job: Job, reply: TerminalReply): Promise<ReplyResult> {
  const { state, supervisor } = ctx;
  const held = heldReplyOf(job);
  if (reply.held !== undefined && held === null)
    throw new RoostError("bad_request", `job ${job.id} holds no reply`);
  if (reply.held === "drop") {
    dropHeldReply(job);
    state.changed(job);
    return { dropped: true, saved: false };
  }
  const text = reply.held === "send" ? held!.text : reply.text!;
  const requestId = reply.held === "send" ? (held!.requestId ?? reply.requestId) : reply.requestId;
  if (reply.held === undefined && requestId !== undefined && held?.requestId === requestId)
    return { held: true, saved: false, duplicate: true };

  const rows = ctx.terminalRows;
  const startedFor = isEnded(job) ? { was: job.lifecycle, restarts: job.restarts } : null;
  const waking = supervisor.wake(job);
  const wasEnded = waking !== null;
  let settled: Settled | null = null;
  if (waking) {
    await waking;
    // Looked at once the program settled: its prompt, a dialog, or (a program roost does not know) quiet.
    if (job.lifecycle === "running") settled = await rows.whenSettled(job, false);
  }
  if (job.lifecycle === "stopped")
    throw new RoostError("unsupported", `job ${job.id} is stopped; respawn it to reply`);
  const started = startedFor === null ? {} : { started: job.restart };
  // Started again for the reply, it ended before it asked anything: it ran, and nothing is kept.
  if (startedFor !== null && isEnded(job) && job.restarts === startedFor.restarts)
    return { ended: job.lifecycle, saved: false, started: job.restart };
  const refusal = notTakingReplies(job, startedFor);
  if (refusal !== null) throw new RoostError("unsupported", refusal);

  const host = await state.waitForHost();
  // The screen as it is now, not as its last event (up to 50 ms old) showed it.
  const screen = await host.screen(job.id).catch((err: unknown) => {
    // Its program ended just now and the host let go of it: as any job that takes no reply.
    if (!(err instanceof RoostError && err.code === "not_found")) throw err;
    throw new RoostError("unsupported", `${job.name} ended as the reply came; the reply was not typed`);
  });
  rows.screen(job, screen);
  const reading = rows.lastReading(job).reading;
  // Typed only as the answer to what the person saw: not into a question other than the one they
  // replied to, nor into a new run's question or dialog (an ended job asked nothing), nor when
  // nothing is asked at all.
  // A new run of a program roost does not know takes input once quiet, as a task is typed.
  const asks = reading?.dialog ? "dialog" : (reading?.input ?? (settled === "input" ? "prompt" : null));
  const otherQuestion = reply.question !== undefined && (reading?.question ?? null) !== reply.question;
  const newRunAsks = wasEnded && reply.held === undefined && (asks === "dialog" || asks === "question");
  if (asks === null || otherQuestion || newRunAsks) {
    holdReply(job, { text, at: state.now(), requestId: requestId ?? null });
    state.changed(job);
    return { held: true, saved: false, ...started };
  }
  if (reading!.dialog) {
    const dialog = reading!.dialog;
    const index = choiceIndex(dialog, text);
    if (index === -1)
      throw new RoostError(
        "bad_request",
        // The options first: a line cut at the edge of a terminal still shows them.
        `${job.name} takes one of: ${dialog.items.map((item) => item.text).join(" | ")} (it asks ${JSON.stringify(reading!.question ?? "")})`,
      );
    await choose(host, rows, job, dialog, index);
  } else await typeText(host, rows, job, text, requestId && `reply:${requestId}`);
  // Removed while it was typed: nothing is kept for it (a write now would bring its row back).
  state.current(job);
  const seq = job.nextSeq++;
  // A reply typed now answers what the person saw: a reply held before it is no longer wanted.
  if (held !== null) dropHeldReply(job);
  await state.store.together(() => {
    feedReply(ctx.feed, job, text, null, reply.by);
    return state.store.addTypedReply(jobRecord(job), seq, requestId);
  });
  state.changed(job);
  return { seq, saved: true, ...started };
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

/** How often a task is typed again after a dialog came up as it was typed. */
const TASK_TRIES = 5;

/**
 * Types a dispatched task once the agent shows its input prompt. A dialog up meanwhile (a trust
 * screen, a first-run menu) waits for the person, and so does one that comes up as the task is
 * typed (a program that draws its prompt first, then a trust screen): the task goes once it is
 * answered. The task is dropped if the job ends first.
 */
export function typeTaskAtPrompt(state: DaemonState, rows: TerminalRows, job: Job, task: string): void {
  // Not in the reply queue: the person's replies answer the dialogs it waits through.
  const typeOnce = async (again: boolean): Promise<boolean> => {
    if ((await rows.whenSettled(job, true)) !== "input") return true;
    try {
      await typeText(state.requireHost(), rows, job, task, undefined, again);
      return true;
    } catch (err) {
      // Enter was not pressed (a dialog came up): it is typed again once the dialog is answered.
      if ((err as RoostError).code !== "not_chosen") throw err;
      return false;
    }
  };
  const notTyped = (why: string) => state.log(`roost: job ${job.id}: its task was not typed: ${why}`);
  void (async () => {
    for (let tries = 0; tries < TASK_TRIES; tries++) if (await typeOnce(tries > 0)) return;
    notTyped(`a dialog came up as it was typed, ${TASK_TRIES} times`);
  })().catch((err: unknown) => notTyped((err as Error)?.message ?? String(err)));
}
