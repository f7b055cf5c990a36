import { visibleWidth } from "@mariozechner/pi-tui";
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
  const from = Math.min(Math.max(0, scroll), maxScroll(body.length, room));
  const shown = body.slice(from, from + room);
  const position =
    body.length > room ? `lines ${from + 1}-${from + shown.length} of ${body.length} · ↑↓ PgUp PgDn · ` : "";
  const lines = [border("┌", bold(` ${title} `), "┐", inner)];
  for (const line of shown) lines.push(`│${fit(line, inner)}│`);
  while (lines.length < room + 1) lines.push(`│${" ".repeat(inner)}│`);
  lines.push(border("└", dim(` ${position}${keys} `), "┘", inner));
  return lines.slice(0, height).map((l) => fit(l, width));
}

/** Plain text broken into lines of at most `width` columns, at spaces where it can. */
export function wrapText(text: string, width: number): string[] {
  const room = Math.max(10, width);
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      for (let rest = word; rest !== ""; ) {
        const joined = line === "" ? rest : `${line} ${rest}`;
        if (joined.length <= room) {
          line = joined;
          rest = "";
        } else if (line !== "") {
          lines.push(line);
          line = "";
        } else {
          lines.push(rest.slice(0, room));
          rest = rest.slice(room);
        }
      }
    }
    lines.push(line);
  }
  return lines.map((l) => ` ${l}`);
}
