/**
 * A screen event told as what changed since the last one: the lines scrolled up, and the lines
 * that differ after that. A screen of a program that prints a line moves every line up by one:
 * told whole, that is the whole screen again; told as a change, one line.
 */
import type { ScreenSnapshot } from "./api.js";
import type { ScreenChange } from "./protocol.js";

/** What turns `before` into `now`; null when it would not be smaller (its size changed). */
export function screenChange(before: ScreenSnapshot, now: ScreenSnapshot): ScreenChange | null {
  if (before.rows !== now.rows || before.lines.length !== now.lines.length) return null;
  const { lines, ...rest } = now;
  const scrolled = scrolledBy(before.lines, lines);
  const changed: [number, string][] = [];
  for (let y = 0; y < lines.length; y++) {
    if (lines[y] !== (before.lines[y + scrolled] ?? "")) changed.push([y, lines[y]!]);
  }
  return { ...rest, scrolled, changed };
}

/** The screen a change turns `before` into. */
export function applyScreenChange(before: ScreenSnapshot, change: ScreenChange): ScreenSnapshot {
  const { scrolled, changed, ...rest } = change;
  const lines: string[] = [];
  for (let y = 0; y < change.rows; y++) lines.push(before.lines[y + scrolled] ?? "");
  for (const [y, text] of changed) if (y >= 0 && y < lines.length) lines[y] = text;
  return { ...rest, lines };
}

/**
 * How far the lines moved up: the shift, if any, that keeps more lines in place than none does.
 * Only shifts that bring an old line to the top are tried (a blank top line tries none).
 */
function scrolledBy(before: readonly string[], now: readonly string[]): number {
  const top = now[0];
  if (!top) return 0;
  let best = 0;
  let bestKept = kept(before, now, 0);
  for (let shift = 1; shift < before.length && bestKept < now.length - shift; shift++) {
    if (before[shift] !== top) continue;
    const k = kept(before, now, shift);
    if (k > bestKept) {
      best = shift;
      bestKept = k;
    }
  }
  return best;
}

function kept(before: readonly string[], now: readonly string[], shift: number): number {
  let n = 0;
  for (let y = 0; y + shift < before.length; y++) if (now[y] === before[y + shift]) n++;
  return n;
}
