/**
 * Typing a reply into a terminal agent, as a person would: pasted (bracketed paste) when the program
 * turned that on, so it takes the text as one piece, then Enter. A reply that names one of a numbered
 * menu's items types the item's number.
 */
import type { ProcessHost } from "../host/api.js";
import type { Job } from "../job.js";
import type { TerminalRows } from "./terminal-rows.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** Between the paste and Enter: programs that read a paste in pieces take the Enter after it. */
const ENTER_AFTER_PASTE_MS = 20;

/** What to type for `text` on this screen: a menu item's number when the text is the item. */
export function answerFor(rows: TerminalRows, job: Job, text: string): string {
  const reading = rows.lastReading(job).reading;
  if (!reading || reading.choices.length === 0) return text;
  const i = reading.choices.indexOf(text.trim());
  return i === -1 ? text : (reading.answers[i] ?? text);
}

/**
 * `key` (a reply's request id) makes the typing once-only: a resend after the daemon died between
 * typing and keeping the request id finds the host took those writes already.
 */
export async function typeInto(
  host: ProcessHost,
  job: Job,
  text: string,
  rows: TerminalRows,
  key?: string,
): Promise<void> {
  const keyed = (part: string) => (key !== undefined ? `${key}:${part}` : undefined);
  const answer = answerFor(rows, job, text);
  const screen = await host.screen(job.id);
  if (screen.bracketedPaste) {
    // The text cannot end the paste early: the end marker is taken out of it.
    await host.write(job.id, `${PASTE_START}${answer.split(PASTE_END).join("")}${PASTE_END}`, keyed("paste"));
    await new Promise((resolve) => setTimeout(resolve, ENTER_AFTER_PASTE_MS));
    await host.write(job.id, "\r", keyed("enter"));
  } else {
    // Without a paste a line break is Enter, as a terminal sends it.
    await host.write(job.id, `${answer.replace(/\r?\n/g, "\r")}\r`, keyed("line"));
  }
}
