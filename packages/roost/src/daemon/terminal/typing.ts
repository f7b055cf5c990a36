/**
 * Typing free text into a terminal agent, as a person would: pasted (bracketed paste) when the
 * program turned that on, so it takes the text as one piece, then Enter. A dialog's options are
 * chosen by their keys instead (`choosing.ts`).
 */
import type { ProcessHost } from "../host/api.js";
import type { Job } from "../job.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** Between the paste and Enter: programs that read a paste in pieces take the Enter after it. */
const ENTER_AFTER_PASTE_MS = 20;

export async function typeText(host: ProcessHost, job: Job, text: string): Promise<void> {
  const screen = await host.screen(job.id);
  if (screen.bracketedPaste) {
    // The text cannot end the paste early: the end marker is taken out of it.
    await host.write(job.id, `${PASTE_START}${text.split(PASTE_END).join("")}${PASTE_END}`);
    await new Promise((resolve) => setTimeout(resolve, ENTER_AFTER_PASTE_MS));
    await host.write(job.id, "\r");
  } else {
    // Without a paste a line break is Enter, as a terminal sends it.
    await host.write(job.id, `${text.replace(/\r?\n/g, "\r")}\r`);
  }
}
