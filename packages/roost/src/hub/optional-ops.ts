import { RoostError } from "../protocol/errors.js";

/**
 * Whether a refusal means the daemon has no such op (yet): an older daemon answers `bad_request`
 * "unknown op", a newer one may answer `unsupported`. Its pane then stays hidden.
 */
export function isMissingOp(error: unknown): boolean {
  if (!(error instanceof RoostError)) return false;
  return error.code === "unsupported" || (error.code === "bad_request" && /unknown op/i.test(error.message));
}

type Loose = Record<string, unknown>;

/** One line of the events feed, read leniently from whatever the `events` op gives. */
export interface FeedItem {
  at: string | null;
  who: string;
  kind: string;
  text: string;
}

export interface BoardCounts {
  open: number;
  claimed: number;
  blocked: number;
  done: number;
}

export interface BoardTaskItem {
  id: string;
  title: string;
  state: string;
  owner: string | null;
}

export interface ScheduleItem {
  id: string;
  name: string;
  when: string;
  next: string | null;
  paused: boolean;
}

function text(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return null;
}

/** An item of the `events` feed, read leniently: the feed's fields may grow. */
export function feedItem(raw: Loose): FeedItem {
  const who = text(raw.who) ?? text(raw.name) ?? text(raw.id) ?? "";
  // `kind` and, within it, `why` (a `task` that was `done`); older feeds may name it `type`.
  const base = text(raw.kind) ?? text(raw.type) ?? "event";
  const why = text(raw.why);
  const kind = why && why !== base ? `${base} ${why}` : base;
  const body = text(raw.text) ?? text(raw.summary) ?? text(raw.message) ?? "";
  return { at: text(raw.at) ?? text(raw.time) ?? null, who, kind, text: body };
}

export function boardTask(raw: Loose): BoardTaskItem {
  const owner = raw.owner as Loose | null | undefined;
  return {
    id: text(raw.id) ?? "?",
    title: text(raw.title) ?? "",
    // An open task waiting on another one reads as blocked, as the board's counts have it.
    state: raw.blocked === true && raw.state === "open" ? "blocked" : (text(raw.state) ?? ""),
    owner: owner && typeof owner === "object" ? (text(owner.name) ?? text(owner.id)) : null,
  };
}

export function boardCounts(raw: Loose): BoardCounts {
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  return { open: n(raw.open), claimed: n(raw.claimed), blocked: n(raw.blocked), done: n(raw.done) };
}

/** Counts from the task list itself, for before the first `board` event. */
export function countTasks(tasks: BoardTaskItem[]): BoardCounts {
  const counts = { open: 0, claimed: 0, blocked: 0, done: 0 };
  for (const t of tasks) if (t.state in counts) counts[t.state as keyof BoardCounts]++;
  return counts;
}

export function scheduleItem(raw: Loose): ScheduleItem {
  return {
    id: text(raw.id) ?? "?",
    name: text(raw.name) ?? text(raw.id) ?? "",
    when: text(raw.when) ?? "",
    next: text(raw.nextAt) ?? text(raw.next) ?? null,
    paused: raw.paused === true,
  };
}

export function listOf(result: unknown, field: string): Loose[] {
  const value = (result as Loose | null)?.[field];
  return Array.isArray(value) ? value.filter((v): v is Loose => typeof v === "object" && v !== null) : [];
}
