/**
 * The lines under a waiting row: what it asks and its choices, numbered for the one-key picks 1–9.
 * A digit picks only a choice drawn on the screen, so the layout says which choices it drew.
 * A question and choices that fit on one line take one line. Else, closed (a row not selected), the
 * row gets one line: some of the question and the choices when they all fit beside it, else the
 * question and how many choices there are; open (the selected row), the question gets up to
 * QUESTION_LINES lines and every numbered choice is drawn whole on the lines below (one longer than
 * a line wrapped on lines of its own).
 */
import { truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import type { JobRow } from "../protocol/rows.js";
import { bold, cyan, dim, oneLine, yellow } from "./style.js";

/** The choices a digit picks: 1 to 9. */
export const KEYED_CHOICES = 9;
/** Lines the open question may take; the details (i) show the rest. */
const QUESTION_LINES = 3;
const PREFIX = "      ? ";
const INDENT = " ".repeat(PREFIX.length);
/** Columns between two choices on a line. */
const GAP = "   ";

export interface AskLines {
  /** The lines, unstyled backgrounds (the row's background is the caller's). */
  lines: string[];
  /** For each choice drawn, its number (1–9) and the line it ends on. */
  drawn: { n: number; line: number }[];
}

/** The longest start of `text` at most `room` columns wide (at least one character). */
function widthHead(text: string, room: number): string {
  let head = "";
  for (const char of text) {
    if (head !== "" && visibleWidth(head + char) > room) break;
    head += char;
  }
  return head;
}

/** A text's lines broken at `room` columns, at spaces where it can; its own line breaks kept (blank ones too). */
export function wrapPlain(text: string, room: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of oneLine(paragraph).split(" ")) {
      if (word === "") continue;
      let rest = word;
      while (rest !== "") {
        const joined = line === "" ? rest : `${line} ${rest}`;
        if (visibleWidth(joined) <= room) {
          line = joined;
          rest = "";
        } else if (line !== "") {
          out.push(line);
          line = "";
        } else {
          // A word longer than the line: cut it where the line ends.
          const head = widthHead(rest, room);
          out.push(head);
          rest = rest.slice(head.length);
        }
      }
    }
    out.push(line);
  }
  return out;
}

function numbered(row: JobRow): { n: number; text: string }[] {
  return row.choices.slice(0, KEYED_CHOICES).map((c, i) => ({ n: i + 1, text: oneLine(c) }));
}

function moreText(row: JobRow): string {
  const more = row.choices.length - KEYED_CHOICES;
  return more > 0 ? `+${more} more: Enter types one, i lists them` : "";
}

const choiceCell = (c: { n: number; text: string }) => `${bold(cyan(String(c.n)))} ${c.text}`;

/**
 * The question and every choice on one line, when the choices fit whole beside the question (some of
 * it, for a row not selected: the selected one shows it whole on lines of its own).
 */
function oneLineAsk(row: JobRow, room: number, whole: boolean): string | null {
  const shown = numbered(row);
  const more = row.choices.length > KEYED_CHOICES ? ` +${row.choices.length - KEYED_CHOICES}` : "";
  const plain = shown.map((c) => `${c.n} ${c.text}`).join("  ") + more;
  const question = row.question ? oneLine(row.question) : "";
  if (plain === "") return yellow(truncateToWidth(question, room, "…"));
  // Some of the question must show beside the choices, or the line says nothing of what is asked.
  const questionRoom = room - visibleWidth(plain) - 2;
  const least = whole ? visibleWidth(question) : Math.min(visibleWidth(question), 12);
  if (more !== "" || questionRoom < least) return null;
  const asked = truncateToWidth(question, questionRoom, "…");
  const rest = " ".repeat(Math.max(0, questionRoom - visibleWidth(asked)));
  return `${yellow(asked)}  ${shown.map(choiceCell).join("  ")}${rest}`;
}

/** The lines under a waiting row that asks, `width` columns wide; `open` for the selected row. */
export function askLines(row: JobRow, width: number, open: boolean): AskLines {
  const room = width - PREFIX.length;
  if (room <= 0) return { lines: [""], drawn: [] };
  const single = oneLineAsk(row, room, open);
  if (single !== null)
    return {
      lines: [`${PREFIX}${single}`],
      drawn: numbered(row).map((c) => ({ n: c.n, line: 0 })),
    };
  const count = row.choices.length;
  const question = row.question ?? "";
  if (!open) {
    const tail = `  · ${count} choices`;
    const asked = truncateToWidth(oneLine(question), Math.max(0, room - tail.length), "…");
    return { lines: [`${PREFIX}${yellow(asked)}${dim(tail)}`], drawn: [] };
  }
  const wrapped = wrapPlain(question, room).filter((l) => l !== "");
  const kept = wrapped.slice(0, QUESTION_LINES);
  if (wrapped.length > QUESTION_LINES)
    kept[QUESTION_LINES - 1] = truncateToWidth(`${kept[QUESTION_LINES - 1]} …`, room, "…");
  const lines = kept.map((l, i) => `${i === 0 ? PREFIX : INDENT}${yellow(l)}`);
  if (lines.length === 0) lines.push(PREFIX);
  const drawn: AskLines["drawn"] = [];
  let line = "";
  let lineWidth = 0;
  const flush = () => {
    if (line !== "") lines.push(`${INDENT}${line}`);
    line = "";
    lineWidth = 0;
  };
  for (const c of numbered(row)) {
    const plain = `${c.n} ${c.text}`;
    const w = visibleWidth(plain);
    if (line !== "" && lineWidth + GAP.length + w > room) flush();
    if (w > room) {
      // Longer than a line: on lines of its own, wrapped under its text; seen once its last line is.
      const [first, ...rest] = wrapPlain(c.text, room - 2);
      lines.push(`${INDENT}${bold(cyan(String(c.n)))} ${first ?? ""}`);
      for (const more of rest) lines.push(`${INDENT}  ${more}`);
      drawn.push({ n: c.n, line: lines.length - 1 });
      continue;
    }
    drawn.push({ n: c.n, line: lines.length });
    line = line === "" ? choiceCell(c) : `${line}${GAP}${choiceCell(c)}`;
    lineWidth += (lineWidth === 0 ? 0 : GAP.length) + w;
  }
  flush();
  const more = moreText(row);
  if (more !== "") lines.push(`${INDENT}${dim(truncateToWidth(more, room, "…"))}`);
  return { lines, drawn };
}
