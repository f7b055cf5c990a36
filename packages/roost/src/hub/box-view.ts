import { visibleWidth } from "@mariozechner/pi-tui";
import { wrapPlain } from "./ask-lines.js";
import { fit } from "./row-view.js";
import { bold, dim } from "./style.js";

/** The furthest a box of `bodyLength` lines scrolls when `room` of them show. */
export function maxScroll(bodyLength: number, room: number): number {
  return Math.max(0, bodyLength - room);
}

/** The lines of a box's body that show in `height` lines (its borders take two). */
export function boxRoom(height: number): number {
  return Math.max(1, height - 2);
}

function border(left: string, text: string, right: string, inner: number): string {
  const plain = fit(text, inner);
  const pad = inner - visibleWidth(text);
  return `${left}${pad > 0 ? text + "─".repeat(pad) : plain}${right}`;
}

/** Where a box of `bodyLength` lines, `room` of them shown, starts when scrolled by `scroll`. */
export function boxScroll(bodyLength: number, room: number, scroll: number): number {
  return Math.min(Math.max(0, scroll), maxScroll(bodyLength, room));
}

/**
 * A boxed, scrolled view over `body` (the help, a job's details): exactly `height` lines of `width`
 * columns, the title on the top border and, on the bottom one, where the view is and how to move.
 */
export function boxLines(
  title: string,
  body: string[],
  width: number,
  height: number,
  scroll: number,
  keys: string,
): string[] {
  const inner = Math.max(1, width - 2);
  const room = boxRoom(height);
  const from = boxScroll(body.length, room, scroll);
  const shown = body.slice(from, from + room);
  const position =
    body.length > room ? `lines ${from + 1}-${from + shown.length} of ${body.length} · ↑↓ PgUp PgDn · ` : "";
  const lines = [border("┌", bold(` ${title} `), "┐", inner)];
  for (const line of shown) lines.push(`│${fit(line, inner)}│`);
  while (lines.length < room + 1) lines.push(`│${" ".repeat(inner)}│`);
  lines.push(border("└", dim(` ${position}${keys} `), "┘", inner));
  return lines.slice(0, height).map((l) => fit(l, width));
}

/** Plain text broken into lines of at most `width` columns, at spaces where it can, each indented by one. */
export function wrapText(text: string, width: number): string[] {
  return wrapPlain(text, Math.max(10, width)).map((l) => ` ${l}`);
}
