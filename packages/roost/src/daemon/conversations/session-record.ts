/**
 * What roost knows of one program's session records: where the record of a job's conversation is,
 * and how its lines read as the conversation's model, usage and context. One module per program
 * (`claude-code-record.ts`, `codex-record.ts`); `session-records.ts` holds the table of them.
 */
import type { ConversationFacts } from "./conversation.js";

/** A record begun this long before the job's process started may still be its own (clocks, a slow start). */
export const START_SLACK_MS = 2000;

/** Where a job's record is looked for. */
export interface RecordPlace {
  /** The job's environment as its program ran with it (its HOME, its CODEX_HOME, ...). */
  env: Record<string, string>;
  cwd: string;
  /** The program's id for the conversation, when roost chose it or found it already. */
  sessionId: string | null;
  /** When its process started (ms since the epoch): a record older than that is another's. */
  startedAt: number;
}

/** Takes a record's lines in order and says what they add up to. */
export interface RecordTally {
  /** One line, parsed: a line of a kind it does not know is passed over. */
  take(line: Record<string, unknown>): void;
  /** What the lines so far say; `read` is false when a line that should carry usage did not read as expected. */
  facts(): ConversationFacts & { read: boolean };
}

export interface SessionRecordFormat {
  /**
   * The job's record file, or null while there is none. `skip`: files that are another job's or
   * were found not to be this one's (a finder may add to it, so it does not look at them again).
   */
  find(place: RecordPlace, skip: Set<string>): Promise<string | null>;
  tally(): RecordTally;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A token count as a record writes it: a finite number not below zero, else null. */
export function tokens(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** A record's line as a JSON object, or null when it is not one. */
export function parsedLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A record's lines given to its tally; a line that is not a JSON object is passed over. */
export function takeLines(tally: RecordTally, lines: string[]): void {
  for (const line of lines) {
    const value = parsedLine(line);
    if (value !== null) tally.take(value);
  }
}
