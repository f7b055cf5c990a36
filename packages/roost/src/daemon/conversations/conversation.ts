/**
 * A terminal job's conversation as its program keeps it (Claude Code, Codex): kept in the job's
 * record, so the program's session id and what was read of its usage outlive the daemon.
 */
import type { ContextUsage, ConversationProgram, ConversationRow, TokenUsage } from "../../protocol/index.js";

/** What one reading of a session record says (null: not seen in it yet). */
export interface ConversationFacts {
  sessionId: string | null;
  model: string | null;
  usage: TokenUsage | null;
  context: ContextUsage | null;
}

export interface ConversationRecord extends ConversationFacts {
  program: ConversationProgram;
  /** The session record's path, once found. */
  file: string | null;
  /** Whether its lines were understood: a record whose usage lines do not read as expected is not. */
  read: boolean;
}

export function newConversation(program: ConversationProgram, sessionId: string | null): ConversationRecord {
  return { program, sessionId, file: null, model: null, usage: null, context: null, read: false };
}

export function conversationRow(record: ConversationRecord): ConversationRow {
  return { program: record.program, sessionId: record.sessionId, read: record.read };
}

/** How full a context window is, in percent to one decimal. */
export function contextOf(tokens: number, window: number): ContextUsage {
  return { tokens, window, percent: window > 0 ? Math.round((tokens / window) * 1000) / 10 : 0 };
}
