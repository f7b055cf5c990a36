/**
 * How a job's program starts now: taking up its conversation (Claude Code's, Codex's) when it had one (a reply to an ended
 * job, a respawn, a restart after a crash, a job taken up after the daemon went), fresh on its
 * first start or when asked. A conversation whose record is gone cannot be resumed: the job starts
 * fresh and its row says so, never a silent loss.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { Job } from "../jobs/job.js";
import { AppendedLines } from "./appended-lines.js";
import { type ConversationRecord, newConversation } from "./conversation.js";
import { recordPlace } from "./record-place.js";
import { claudeResumeArgv, codexResumeArgv, profileResumeArgv, withSessionId } from "./resume-argv.js";
import { takeLines } from "./session-record.js";
import { SESSION_RECORDS } from "./session-records.js";

/** How each program whose record roost reads is started resuming a conversation. */
const RESUME_ARGV = { claude: claudeResumeArgv, codex: codexResumeArgv } as const;

/** Whether a job's program can take up its conversation when started again (Claude Code, Codex, a profile's `resume`). */
export function canResume(job: Pick<Job, "conversation" | "resumeArgs">): boolean {
  return Boolean(job.conversation) || Boolean(job.resumeArgs);
}

/**
 * The job's command as it starts a new conversation: Claude Code's with the conversation's own id
 * (the stored command keeps the first one: a command is written once, with the job).
 */
function commandOf(job: Job): string[] {
  const id = job.conversation?.program === "claude" ? job.conversation.sessionId : null;
  return id === null ? job.command : withSessionId(job.command, id);
}

/**
 * Its record's path: as the reader found it, or for a conversation whose id roost chose, where its
 * program writes it (it may have written it just before it ended, unread yet).
 */
export async function recordFile(job: Job, conversation: ConversationRecord): Promise<string | null> {
  if (conversation.file !== null || conversation.sessionId === null) return conversation.file;
  return SESSION_RECORDS[conversation.program].find(recordPlace(job, conversation.sessionId, 0), new Set());
}

/** Whether the record holds a model's answer (what was read of it already says so, else it is read now). */
async function holdsAnswer(conversation: ConversationRecord, file: string): Promise<boolean> {
  if (conversation.file === file && conversation.usage !== null) return true;
  const tally = SESSION_RECORDS[conversation.program].tally();
  const lines = new AppendedLines(file);
  for (;;) {
    const read = lines.read();
    if (read === null) return false;
    takeLines(tally, read.lines);
    if (!read.more) return tally.facts().usage !== null;
    await yieldToEvents();
  }
}

/** The command to start the job with now; its row's `resume` says how it went. */
export async function launchCommand(job: Job): Promise<string[]> {
  const first = !job.started;
  job.started = true;
  const conversation = job.conversation;
  if (conversation) {
    const file = await recordFile(job, conversation);
    // Nothing found of it yet (its first start, or it never talked to its model): nothing to resume.
    if (file === null || conversation.sessionId === null) return commandOf(job);
    if (!existsSync(file)) {
      startFresh(job, `started fresh: its conversation's record is gone (${file})`);
      return commandOf(job);
    }
    if (!(await holdsAnswer(conversation, file))) {
      // Claude Code refuses to resume a record without its messages (it ended before it wrote them).
      startFresh(job, "started fresh: its conversation's record holds no answer to take up");
      return commandOf(job);
    }
    job.resume = { resumed: true, note: null };
    return RESUME_ARGV[conversation.program](job.command, conversation.sessionId);
  }
  if (!job.resumeArgs || first) return job.command;
  job.resume = { resumed: true, note: null };
  return profileResumeArgv(job.command, job.resumeArgs);
}

/** The next start begins a new conversation (`respawn --fresh`, or a record gone), with `note` on the row. */
export function startFresh(job: Job, note: string): void {
  job.resume = { resumed: false, note };
  // A profile's own resume: the next start is taken as a first one.
  job.started = false;
  const old = job.conversation;
  if (!old) return;
  // Claude Code was given its id up front: the new conversation gets a new one.
  const chosen = old.program === "claude" && job.command.includes("--session-id");
  job.conversation = newConversation(old.program, chosen ? randomUUID() : null);
}
