import { asksPerson, type JobRow } from "./rows.js";

/**
 * The moments a person is told of: a session starts waiting for them (a question, a dialog, its
 * first prompt), fails, or finishes what it was given. `test` is `roost notify test`'s sample.
 */
export const NOTIFY_KINDS = ["waiting", "failed", "done"] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** What `notify.command` gets: one JSON line on its standard input (and as `ROOST_NOTIFY_*` variables). */
export interface NotifyEvent {
  event: NotifyKind | "test";
  id: string;
  name: string;
  profile: string;
  cwd: string;
  /** What it asks (waiting), why it failed (failed), or what it says. */
  text: string;
  question: string | null;
  choices: string[];
  /** When it came to this (ISO time). */
  at: string;
}

/** Which of those moments a row is in now, if any; the concierge's waits are for digests, never for the person. */
export function notifyKindOf(row: JobRow): NotifyKind | null {
  if (row.lifecycle === "stopped" || row.role === "concierge") return null;
  if (row.lifecycle === "failed" || row.state === "failed") return "failed";
  if (row.lifecycle === "done" || row.state === "done") return "done";
  if (asksPerson(row) || (row.state === "blocked" && row.waitingFor === "first-prompt")) return "waiting";
  return null;
}

/** The event for a row in that moment. */
export function notifyEvent(row: JobRow, event: NotifyEvent["event"], at: string): NotifyEvent {
  const text =
    event === "waiting"
      ? (row.question ?? row.summary ?? "waits for you")
      : event === "failed"
        ? (row.error ?? row.summary ?? "failed")
        : (row.summary ?? row.task ?? "");
  return {
    event,
    id: row.id,
    name: row.name,
    profile: row.profile,
    cwd: row.cwd,
    text,
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
