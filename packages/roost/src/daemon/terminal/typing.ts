/**
 * Typing free text into a terminal agent, as a person would: pasted (bracketed paste) when the
 * program turned that on, so it takes the text as one piece, then Enter. At a known agent's input
 * prompt the text is read back in its input box before Enter, and Enter again while the box still
 * holds it (an agent that takes a paste in pieces may take an Enter right after it as part of it).
 * A dialog's options are chosen by their keys instead (`choosing.ts`).
 *
 * `key` (a reply's request id) makes the typing once-only: a resend after the daemon died between
 * typing and keeping the request id finds the host took those writes already.
 */

import { RoostError } from "../../protocol/index.js";
import type { ProcessHost, ScreenSnapshot } from "../host/api.js";
import type { Job } from "../jobs/job.js";
import { TUNING } from "../tuning.js";
import type { ScreenReading } from "./screen-reading.js";
import type { TerminalRows } from "./terminal-rows.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** Between the paste and Enter: programs that read a paste in pieces take the Enter after it. */
const ENTER_AFTER_PASTE_MS = 20;
/** How long the input box is given to show the text, then to take the Enter. */
const READ_BACK_MS = TUNING.readBackMs;
const SUBMIT_TRIES = 3;

/** The end of the text, as the input box shows it where the cursor is. */
function tailOf(text: string): string {
  const last = text.trimEnd().split(/\r?\n/).at(-1) ?? "";
  return last.trim().slice(-16);
}

function boxHolds(screen: ScreenSnapshot, tail: string): boolean {
  return tail !== "" && (screen.lines[screen.cursor.y] ?? "").includes(tail);
}

/** A dialog up now would take an Enter as its answer: none is pressed. */
function refuseEnterUnderDialog(job: Job, reading: ScreenReading | null | undefined): void {
  if (reading?.dialog)
    throw new RoostError(
      "not_chosen",
      `${job.name} showed a dialog (${JSON.stringify(reading.question)}) as the text was typed; Enter was not pressed`,
    );
}

/**
 * Types `text` and Enter. `again`: typed once before, when a dialog came up over it: a text the
 * input box holds already (the paste landed before the dialog) is sent with Enter, not pasted twice.
 */
export async function typeText(
  host: ProcessHost,
  rows: TerminalRows,
  job: Job,
  text: string,
  key?: string,
  again = false,
): Promise<void> {
  const keyed = (part: string) => (key !== undefined ? `${key}:${part}` : undefined);
  const { screen, reading } = rows.lastReading(job);
  const atPrompt = reading?.input === "prompt";
  const tail = tailOf(text);
  if (again && atPrompt && screen && boxHolds(screen, tail))
    return submit(host, rows, job, tail, true, keyed);
  const bracketed = screen?.bracketedPaste ?? (await host.screen(job.id)).bracketedPaste;
  if (!bracketed) {
    // Without a paste a line break is Enter, as a terminal sends it.
    await host.write(job.id, `${text.replace(/\r?\n/g, "\r")}\r`, keyed("line"));
    return;
  }
  // The text cannot end the paste early: the end marker is taken out of it.
  await host.write(job.id, `${PASTE_START}${text.split(PASTE_END).join("")}${PASTE_END}`, keyed("paste"));
  if (!atPrompt) {
    await new Promise((resolve) => setTimeout(resolve, ENTER_AFTER_PASTE_MS));
    rows.screen(job, await host.screen(job.id));
    refuseEnterUnderDialog(job, rows.lastReading(job).reading);
    await host.write(job.id, "\r", keyed("enter"));
    return;
  }
  const landed = await rows.readingWhen(job, (r, s) => boxHolds(s, tail) || r.dialog !== null, READ_BACK_MS);
  refuseEnterUnderDialog(job, landed);
  // Nothing read back: a long paste shows as a placeholder, or the paste went where no box shows it.
  if (!landed) refuseEnterUnderDialog(job, rows.lastReading(job).reading);
  await submit(host, rows, job, tail, landed !== null, keyed);
}

/** Enter, and Enter again while the box still holds the text (`readBack`: it showed it). */
async function submit(
  host: ProcessHost,
  rows: TerminalRows,
  job: Job,
  tail: string,
  readBack: boolean,
  keyed: (part: string) => string | undefined,
): Promise<void> {
  for (let tries = 0; tries < SUBMIT_TRIES; tries++) {
    // The screen as it is now, not as its last event showed it: a program that switches from its
    // prompt to a dialog (Codex to its trust screen) must not take this Enter as the dialog's answer.
    rows.screen(job, await host.screen(job.id));
    refuseEnterUnderDialog(job, rows.lastReading(job).reading);
    await host.write(job.id, "\r", keyed(`enter-${tries}`));
    // Without a read-back, one Enter is all.
    if (!readBack) return;
    const sent = await rows.readingWhen(job, (_r, s) => !boxHolds(s, tail), READ_BACK_MS / SUBMIT_TRIES);
    if (sent) return;
  }
}
