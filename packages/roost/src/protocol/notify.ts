import { asksPerson, type JobRow } from "./rows.js";

/**
 * The moments a person is told of: a session starts waiting for them (a question, a dialog, its
 * first prompt), fails, or finishes what it was given. Beside them, `budget`: a session passed one
 * of roost.json's budgets (and was stopped, for a `stop` budget); `test` is `roost notify test`'s sample.
 */
export const NOTIFY_KINDS = ["waiting", "failed", "done"] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** What `notify.command` gets: one JSON line on its standard input (and as `ROOST_NOTIFY_*` variables). */
export interface NotifyEvent {
  event: NotifyKind | "budget" | "test";
  id: string;
  name: string;
  profile: string;
  cwd: string;
  /** What it asks (waiting), why it failed (failed), which budget it passed (budget), or what it says. */
  text: string;
  question: string | null;
  choices: string[];
  /** When it came to this (ISO time). */
  at: string;
}

/** Which of those moments a row is in now, if any; the concierge's waits are for digests, never for the person. */
export function notifyKindOf(
  row: Pick<JobRow, "lifecycle" | "role" | "state" | "waitingFor">,
): NotifyKind | null {
  if (row.lifecycle === "stopped" || row.role === "concierge") return null;
  if (row.lifecycle === "failed" || row.state === "failed") return "failed";
  if (row.lifecycle === "done" || row.state === "done") return "done";
  if (asksPerson(row) || (row.state === "blocked" && row.waitingFor === "first-prompt")) return "waiting";
  return null;
}

/** What a row in that moment says. */
function momentText(row: JobRow, event: NotifyKind): string {
  if (event === "waiting") return row.question ?? row.summary ?? "waits for you";
  if (event === "failed") return row.error ?? row.summary ?? "failed";
  return row.summary ?? row.task ?? "";
}

/** The event for a row in that moment, or for a budget it passed (what it passed as the `text`). */
export function notifyEvent(row: JobRow, event: NotifyKind, at: string): NotifyEvent;
export function notifyEvent(row: JobRow, event: "budget", at: string, text: string): NotifyEvent;
export function notifyEvent(
  row: JobRow,
  event: NotifyKind | "budget",
  at: string,
  text?: string,
): NotifyEvent {
  return {
    event,
    id: row.id,
    name: row.name,
    profile: row.profile,
    cwd: row.cwd,
    text: text ?? momentText(row, event as NotifyKind),
    question: row.question,
    choices: row.choices,
    at,
  };
}

/** How `roost notify test`'s run went: the command, its exit code, or why it did not run or finish. */
export interface NotifyTestResult {
  command: string[];
  code: number | null;
  error: string | null;
}
