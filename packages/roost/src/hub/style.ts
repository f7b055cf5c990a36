import { terminalSafe } from "../protocol/terminal-text.js";

/** SGR styles for the hub's lines. Each closes only what it opened, so styles nest. */
const sgr = (open: string, close: string) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

export const bold = sgr("1", "22");
export const dim = sgr("2", "22");
export const inverse = sgr("7", "27");
export const red = sgr("31", "39");
export const green = sgr("32", "39");
export const yellow = sgr("33", "39");
export const blue = sgr("34", "39");
export const magenta = sgr("35", "39");
export const cyan = sgr("36", "39");
export const grey = sgr("90", "39");
/** The selected row's background. */
export const selectedBackground = sgr("48;5;236", "49");
/** A waiting row's background: it stands out without being selected. */
export const waitingBackground = sgr("48;5;58", "49");
export const errorBackground = sgr("41;97", "49;39");

/**
 * Text from an agent or a screen, made safe for one terminal line (the protocol's `terminalSafe`):
 * no escape sequences, no invisible characters, no control characters, no line breaks.
 */
export function oneLine(text: string): string {
  return terminalSafe(text);
}
