/**
 * What a session has used, as its row carries it: the same fields for every agent roost knows (pi
 * reports them; Claude Code's and Codex's are read from their own session records).
 */

/** Tokens a session has used so far, summed over its model calls. */
export interface TokenUsage {
  /** Input tokens not read from the cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** What the agent itself says it cost (pi), when it does. */
  cost?: number;
}

/** The program whose own session record a terminal job's usage is read from. */
export const CONVERSATION_PROGRAMS = ["claude", "codex"] as const;
export type ConversationProgram = (typeof CONVERSATION_PROGRAMS)[number];

/** A terminal job's conversation as the program keeps it: which program, under which id. */
export interface ConversationRow {
  program: ConversationProgram;
  /** The program's own id for the conversation (null until its record is found). */
  sessionId: string | null;
  /** Whether its record was found and understood: false, the row's usage is unknown. */
  read: boolean;
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** A report's open `usage` field as token usage, or null when it does not hold the four counts. */
export function tokenUsageOf(raw: Record<string, unknown> | null | undefined): TokenUsage | null {
  if (!raw) return null;
  const [input, output, cacheRead, cacheWrite] = ["input", "output", "cacheRead", "cacheWrite"].map((k) =>
    count(raw[k]),
  );
  if (input === null || output === null || cacheRead === null || cacheWrite === null) return null;
  const cost = count(raw.cost);
  return { input, output, cacheRead, cacheWrite, ...(cost !== null ? { cost } : {}) };
}

/** How a job that can resume its conversation was last started. */
export interface ResumeRow {
  /** Whether its program was started taking up its conversation. */
  resumed: boolean;
  /** Why it started fresh instead (asked so, or its conversation's record is gone); null when resumed. */
  note: string | null;
}
