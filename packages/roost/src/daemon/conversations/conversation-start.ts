/**
 * A new terminal job's conversation: whether its program keeps records roost reads (Claude Code,
 * Codex: the reader its profile names or its command's name says), and for Claude Code run as a
 * plain argv, the conversation's id chosen up front (`--session-id`), so its record is known
 * before it is written.
 */
import { randomUUID } from "node:crypto";
import type { AgentProfile } from "../../home/agent-profile.js";
import { CONVERSATION_PROGRAMS, type ConversationProgram } from "../../protocol/index.js";
import type { JobRecord } from "../store/store.js";
import { readerFor } from "../terminal/reader-choice.js";
import { newConversation } from "./conversation.js";

/** Options by which a command picks its conversation itself: roost chooses none then. */
const CLAUDE_SESSION_OPTIONS = new Set(["--session-id", "--resume", "-r", "--continue", "-c"]);

function programOf(profile: AgentProfile, command: readonly string[]): ConversationProgram | null {
  const name = readerFor(profile.reader, command).name;
  return (CONVERSATION_PROGRAMS as readonly string[]).includes(name) ? (name as ConversationProgram) : null;
}

/**
 * Gives a new terminal job's record its conversation (and Claude Code its session id), or for
 * another program the profile's own `resume`.
 */
export function startConversation(record: JobRecord, profile: AgentProfile): void {
  if (record.kind !== "terminal") return;
  const program = programOf(profile, record.command);
  if (program === null) {
    if (profile.resume) record.resumeArgs = [...profile.resume];
    return;
  }
  const choosesId =
    program === "claude" &&
    Array.isArray(profile.command) &&
    !record.command.some((arg) => CLAUDE_SESSION_OPTIONS.has(arg));
  const sessionId = choosesId ? randomUUID() : null;
  if (sessionId !== null)
    record.command = [record.command[0]!, "--session-id", sessionId, ...record.command.slice(1)];
  record.conversation = newConversation(program, sessionId);
}
