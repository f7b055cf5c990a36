/**
 * What attach draws over the job's screen itself, not only in the window's title (which many
 * terminals never show): how to leave, and, for a protocol agent that drew nothing, why it is blank.
 */
import { type AttachResult, DETACH_KEY_NAME, terminalSafe } from "../protocol/index.js";

const SAVE_CURSOR = "\x1b7";
const RESTORE_CURSOR = "\x1b8";

/**
 * How to leave, in reverse video at the top right of the screen, the cursor put back where the
 * program had it: the program's next drawing there covers it, as it covers anything of its own.
 */
export function leaveBanner(name: string, cols: number | undefined): string {
  const text = ` [roost] ${name} · ${DETACH_KEY_NAME} detaches `;
  const column = cols && cols > text.length ? cols - text.length + 1 : 1;
  return `${SAVE_CURSOR}\x1b[1;${column}H\x1b[7m${text}\x1b[27m${RESTORE_CURSOR}`;
}

/**
 * Why a live job's screen is blank, or null when it shows something (or is no protocol agent's):
 * a protocol agent speaks to roost, and its terminal holds only what it happens to print.
 */
export function blankScreenReason(
  result: Pick<AttachResult, "screen" | "kind">,
  name: string,
): string | null {
  if (result.kind !== "protocol" || terminalSafe(result.screen).trim() !== "") return null;
  return `${name} is a protocol agent: it speaks to roost, not to this terminal, and has printed nothing here, so there is nothing to show. Its row in the hub (or roost describe) says what it does; replies go with roost reply. ${DETACH_KEY_NAME} detaches.`;
}
