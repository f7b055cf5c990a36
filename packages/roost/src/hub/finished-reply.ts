/**
 * A reply to a finished row starts its program again: the hub says so before anything runs. A row
 * whose job resumes says it on the reply line; one whose command runs anew asks first.
 */
import { ENDED_LIFECYCLES, type JobRow } from "../protocol/rows.js";

/** What a reply to the row starts: nothing (it runs, or it was stopped), a resume, or a new run. */
export function replyStarts(row: JobRow): "resumes" | "reruns" | null {
  if (!ENDED_LIFECYCLES.has(row.lifecycle)) return null;
  // A daemon that does not say (an older one) starts it as it always did: a resume.
  return row.restart ?? "resumes";
}

/** The reply line's note: what sending it will do. */
export function replyNote(row: JobRow, start: boolean): string | null {
  const starts = replyStarts(row);
  if (starts === "resumes") return `resumes ${row.name}`;
  if (starts === "reruns" && start) return `starts ${row.name} again`;
  return null;
}

/** The confirmation before a reply line that starts a finished command again: its keys first. */
export function startConfirmText(row: JobRow): string {
  return `A reply starts ${row.name} again: y/Enter: write it  Esc: cancel · ${row.name} is ${row.lifecycle} and its command runs anew`;
}
