/**
 * A job's conversation as its agent's own record keeps it (the `transcript` op): Claude Code's and
 * Codex's session records, pi's session file (through the worker, which says `transcript`). Read
 * in pages from a cursor, so a long record is never one answer and a follower asks for what is new.
 */
import { type Static, Type } from "typebox";
import type { DeliverKind } from "./agent-message.js";
import { Count, JobRef, Maybe } from "./fields.js";
import { LIMITS } from "./limits.js";
import type { ConversationProgram } from "./usage.js";

/**
 * What an entry is: the person's message, the agent's answer, a call of a tool and what it gave
 * back, and a message from another session (a peer's message, a child's report, a notice).
 */
export const TRANSCRIPT_KINDS = ["user", "assistant", "tool-call", "tool-result", "agent-message"] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];

/** The programs whose records make a transcript. */
export type TranscriptProgram = ConversationProgram | "pi";

/** One entry, in the order the record has it. Every text in it is the agent's: untrusted. */
export interface TranscriptEntry {
  kind: TranscriptKind;
  /** When the record says it was written (ISO time), or null. */
  at: string | null;
  /** The message; a call's input as JSON; a result's output. At most `LIMITS.transcriptText` characters. */
  text: string;
  /** The whole text's length in characters, when `text` is only its start. */
  cut?: number;
  /** The tool called, or whose result this is (when the record names it there). */
  tool?: string;
  /** The call a result answers. */
  callId?: string;
  /** The tool said it failed. */
  error?: boolean;
  /** An agent message's sender, its relation to this session, and what it is. */
  from?: string;
  relation?: string;
  delivery?: DeliverKind;
}

/** A cursor: `INODE:OFFSET:SKIP` (which record, where in it, entries of that line given), or empty for the start. */
export const TRANSCRIPT_CURSOR = /^(?:\d{1,20}:\d{1,16}:\d{1,6})?$/;

export const TranscriptArgs = Type.Object({
  /** A job id or a unique name. */
  id: JobRef,
  /** A cursor an answer gave: the entries after it. Left out or empty: from the start. */
  after: Maybe(
    Type.String({ pattern: TRANSCRIPT_CURSOR.source, description: "a cursor a transcript answer gave" }),
  ),
  /** At most this many entries (default and most: 500). */
  limit: Maybe(Count(1, LIMITS.transcriptEntries)),
});
export type TranscriptArgs = Static<typeof TranscriptArgs>;

export interface TranscriptResult {
  program: TranscriptProgram;
  /** The record read (null: none written yet, or it is gone). */
  file: string | null;
  entries: TranscriptEntry[];
  /** Pass as `after` to get what comes next. */
  cursor: string;
  /** The record holds more than this answer carries: ask again with `cursor`. */
  more: boolean;
  /**
   * `after` named a record that is no longer the job's (a fresh conversation, a file rewritten or
   * cut): the entries are from the start of the one it has now, and what was shown before is void.
   */
  restarted: boolean;
}
