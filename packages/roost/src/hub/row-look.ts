import { asksPerson, type JobRow } from "../protocol/rows.js";
import { blue, bold, cyan, green, grey, red, yellow } from "./style.js";

/** How a row's state reads at a glance: a glyph, a word, a colour, and the group it sorts into. */
export interface RowLook {
  glyph: string;
  label: string;
  colour: (text: string) => string;
  /** The state group (grouping by state), in display order. */
  group: StateGroup;
}

export const STATE_GROUPS = [
  "waiting for you",
  "working",
  "idle",
  "starting",
  "done",
  "failed",
  "interrupted",
  "stopped",
] as const;
export type StateGroup = (typeof STATE_GROUPS)[number];

/** A row that waits for the user: it asks something. The concierge's waits for digests, never for the person. */
export function isWaiting(row: JobRow): boolean {
  return asksPerson(row) && row.role !== "concierge";
}

const yellowBold = (text: string) => bold(yellow(text));

export function rowLook(row: JobRow): RowLook {
  if (row.lifecycle === "stopped") return { glyph: "■", label: "stopped", colour: grey, group: "stopped" };
  // Whatever it last reported went with its process: it neither asks nor fails now.
  if (row.lifecycle === "interrupted")
    return { glyph: "↯", label: "interrupted", colour: yellow, group: "interrupted" };
  if (row.lifecycle === "failed" || row.state === "failed")
    return { glyph: "✗", label: "failed", colour: red, group: "failed" };
  if (isWaiting(row)) return { glyph: "?", label: "waiting", colour: yellowBold, group: "waiting for you" };
  // Between digests the concierge waits for the next one, and a session at its prompt for a task:
  // to the person each is idle.
  if ((row.role === "concierge" || row.waitingFor === "first-prompt") && row.state === "blocked")
    return { glyph: "◦", label: "idle", colour: blue, group: "idle" };
  if (row.lifecycle === "done" || row.state === "done")
    return { glyph: "✓", label: "done", colour: green, group: "done" };
  if (row.lifecycle === "starting") return { glyph: "○", label: "starting", colour: cyan, group: "starting" };
  if (row.lifecycle === "reaped") return { glyph: "○", label: "exited", colour: grey, group: "idle" };
  if (row.status === "idle") return { glyph: "◦", label: "idle", colour: blue, group: "idle" };
  return {
    glyph: "●",
    label: row.status === "waiting" ? "waiting" : "working",
    colour: green,
    group: "working",
  };
}

/** A waiting row that says what it asks: it gets a line for the question and its choices. */
export function asksUser(row: JobRow): boolean {
  return isWaiting(row) && (row.question !== null || row.choices.length > 0);
}

/** What an interrupted row says first: what became of it and how it comes back. */
const INTERRUPTED_NOTE = "went down with roost or the machine · a reply or roost resume brings it back";

/**
 * What a row says in one line: an interrupted row how it comes back, then its last line; a failed
 * one (or one roost stopped: a budget) why, and its last line; else its summary, error or task. A
 * job given up after crashes says what it printed last first: that is the reason, the crash count
 * is not.
 */
export function rowSays(row: JobRow): string {
  if (row.lifecycle === "interrupted") {
    const last = row.summary || row.task;
    return `${INTERRUPTED_NOTE}${last ? ` · last: ${last}` : ""}`;
  }
  const ended = row.state === "failed" || row.lifecycle === "failed" || row.lifecycle === "stopped";
  if (!ended || !row.error) return row.summary || row.error || row.task || "";
  if (!row.summary || row.summary === row.error) return row.error;
  if (/^crashed \d+ times/.test(row.error)) return `${row.summary} · ${row.error}`;
  return `${row.error} · last: ${row.summary}`;
}

/**
 * Replies the agent has not been handed yet: while it is connected each was delivered at once (it
 * works on them; they are acked when done), and an agent that takes no replies never will take them.
 */
export function unreadReplies(row: JobRow): number {
  if (row.connected) return 0;
  if (row.reported && row.capabilities.length > 0 && !row.capabilities.includes("replies")) return 0;
  return row.pending;
}
