/**
 * Answering a dialog by the keys that choose an option, never pasted (programs ignore a pasted
 * number, and the Enter after it takes whatever is highlighted): in a menu with a highlighted item,
 * arrows to the option and Enter once the screen shows it highlighted; in a plain menu or a `[y/N]`
 * prompt, the option's key and Enter once the screen shows it typed; Enter for a "continue".
 * When the screen read back does not show the option highlighted or taken, the reply is refused
 * (`not_chosen`) and nothing more is typed.
 *
 * A dialog just drawn may not read keys yet: Codex drops what was typed while it switches screens
 * (it flushes its input as it starts reading again). So the first key waits until the dialog's screen
 * has been quiet a moment, and an Enter the program shows no sign of having read (it printed nothing
 * and the dialog is still up) is pressed again: on the same dialog, it chooses the same option.
 */

import { RoostError } from "../../protocol/index.js";
import type { ProcessHost, ScreenSnapshot } from "../host/api.js";
import type { Job } from "../jobs/job.js";
import { TUNING } from "../tuning.js";
import type { Dialog } from "./dialogs.js";
import type { ScreenReading } from "./screen-reading.js";
import type { TerminalRows } from "./terminal-rows.js";

const UP = "\x1b[A";
const DOWN = "\x1b[B";
/** How long the screen is given to show a key's effect. */
const READ_BACK_MS = TUNING.readBackMs;
/** How long a dialog's screen stays unchanged before it is taken to read keys. */
const DIALOG_QUIET_MS = TUNING.readyQuietMs;
/** How often Enter is pressed on a dialog that shows no sign of having read it. */
const ENTER_TRIES = 3;

/** The option `text` names: its text (any case), its number in a menu, `yes`/`no` at a `[y/N]`. */
export function choiceIndex(dialog: Dialog, text: string): number {
  const wanted = text.trim().toLowerCase();
  const byText = dialog.items.findIndex((item) => item.text.toLowerCase() === wanted);
  if (byText !== -1) return byText;
  if (dialog.kind === "menu") return dialog.items.findIndex((item) => item.key === wanted);
  if (dialog.kind === "yes-no" && ["yes", "no", "y", "n"].includes(wanted))
    return dialog.items.findIndex((item) => item.key[0] === wanted[0]);
  return -1;
}

/** Whether `other` is the same dialog (its highlight may have moved). */
function sameDialog(dialog: Dialog, other: Dialog | null): boolean {
  return (
    other !== null &&
    other.kind === dialog.kind &&
    other.items.length === dialog.items.length &&
    other.items.every((item, i) => item.text === dialog.items[i]!.text)
  );
}

function cursorLine(screen: ScreenSnapshot | null): string {
  return screen?.lines[screen.cursor.y]?.trimEnd() ?? "";
}

function notChosen(why: string): RoostError {
  return new RoostError("not_chosen", `${why}; the reply was not confirmed (attach to see the screen)`);
}

/** Resolves once `dialog` has been on a screen that printed nothing for a moment, or after READ_BACK_MS (a spinner beside it). */
async function whenDialogQuiet(rows: TerminalRows, job: Job, dialog: Dialog): Promise<void> {
  const quiet = (r: ScreenReading, screen: ScreenSnapshot) =>
    sameDialog(dialog, r.dialog) && Date.now() - screen.lastOutputAt >= DIALOG_QUIET_MS;
  const until = Date.now() + READ_BACK_MS;
  // Quiet makes no screen event: look again now and then.
  while (Date.now() < until && job.lifecycle === "running")
    if (await rows.readingWhen(job, quiet, DIALOG_QUIET_MS)) return;
}

/** Presses Enter on `dialog`, again while the program printed nothing since and still shows it. */
async function pressEnter(host: ProcessHost, rows: TerminalRows, job: Job, dialog: Dialog): Promise<void> {
  for (let tries = 1; tries <= ENTER_TRIES; tries++) {
    // The screen as it is now: an event still on its way would pass for the program's answer.
    rows.screen(job, await host.screen(job.id));
    const before = rows.lastReading(job).screen!.lastOutputAt;
    await host.write(job.id, "\r");
    const answered = await rows.readingWhen(
      job,
      (r, screen) => screen.lastOutputAt !== before || !sameDialog(dialog, r.dialog),
      READ_BACK_MS,
    );
    if (answered || job.lifecycle !== "running") return;
  }
  throw notChosen(`Enter was pressed ${ENTER_TRIES} times and the program showed nothing`);
}

/** Chooses `dialog`'s item `index` in the job's terminal; throws `not_chosen` when the screen does not show it. */
export async function choose(host: ProcessHost, rows: TerminalRows, job: Job, dialog: Dialog, index: number) {
  const item = dialog.items[index]!;
  await whenDialogQuiet(rows, job, dialog);
  if (dialog.kind === "continue") {
    await pressEnter(host, rows, job, dialog);
    return;
  }
  if (dialog.highlighted !== -1) {
    const moves = index - dialog.highlighted;
    if (moves !== 0) await host.write(job.id, (moves > 0 ? DOWN : UP).repeat(Math.abs(moves)));
    const onIt = await rows.readingWhen(
      job,
      (r) => sameDialog(dialog, r.dialog) && r.dialog!.highlighted === index,
      READ_BACK_MS,
    );
    if (!onIt) {
      const now = rows.lastReading(job).reading?.dialog ?? null;
      const where =
        now && sameDialog(dialog, now) && now.highlighted !== -1
          ? `"${now.items[now.highlighted]!.text}" is highlighted`
          : "the menu is gone";
      throw notChosen(
        `"${item.text}" was not highlighted after the arrow keys (${where}); Enter was not pressed`,
      );
    }
    await pressEnter(host, rows, job, dialog);
    return;
  }
  const before = cursorLine(rows.lastReading(job).screen);
  await host.write(job.id, item.key);
  const seen = await rows.readingWhen(
    job,
    (r, screen) => {
      const line = cursorLine(screen);
      return !sameDialog(dialog, r.dialog) || (line !== before && line.endsWith(item.key));
    },
    READ_BACK_MS,
  );
  if (!seen) throw notChosen(`"${item.key}" was typed but the screen did not show it; Enter was not pressed`);
  // Typed at the prompt (a line reader takes it with Enter); a dialog gone took the key by itself.
  if (sameDialog(dialog, seen.dialog)) await host.write(job.id, "\r");
}
