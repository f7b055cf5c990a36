import { truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import type { JobRow } from "../protocol/rows.js";
import { dollars } from "../protocol/usage-text.js";
import { worktreeLine } from "../protocol/worktree-text.js";
import { formatAge } from "./age.js";
import type { LineEditor } from "./line-editor.js";
import type { RowEntry } from "./row-list.js";
import { asksUser, isWaiting, rowLook, rowSays, unreadReplies } from "./row-look.js";
import {
  bold,
  cyan,
  dim,
  grey,
  inverse,
  magenta,
  oneLine,
  selectedBackground,
  waitingBackground,
  yellow,
} from "./style.js";

/** Cuts or pads plain-or-styled text to exactly `width` columns. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  return truncateToWidth(text, width, "…", true);
}

/** The name column's width for a screen `width` columns wide. */
function nameWidth(width: number): number {
  return Math.max(10, Math.min(24, Math.floor(width * 0.22)));
}

function rowText(row: JobRow, parentName: string | null, showParent: boolean): string {
  const parts: string[] = [];
  if (showParent && parentName) parts.push(`↳ ${parentName} ·`);
  // A job in a worktree shows its work first: its branch, ahead/behind, changes, whether it merges.
  if (row.worktree) parts.push(`⎇ ${worktreeLine(row.worktree)} ·`);
  if (row.tool) parts.push(`[${row.tool}]`);
  // A failed row says why, and what the program said last (often the reason itself).
  parts.push(rowSays(row));
  return oneLine(parts.join(" "));
}

/** What an agent runs, when it says: its model's id, how full its context is, what it cost so far. */
export function agentMeta(row: JobRow): string {
  const model = row.model ? row.model.slice(row.model.lastIndexOf("/") + 1) : "";
  const context = row.context ? `${Math.round(row.context.percent)}%` : "";
  // The cost is kept whole; the model's id gives way to it.
  const cost = row.usage?.cost !== undefined ? dollars(row.usage.cost) : "";
  const head = oneLine([model, context].filter(Boolean).join(" ")).slice(0, cost ? 29 - cost.length : 30);
  const meta = [head, cost].filter(Boolean).join(" ");
  return meta ? `${meta} ` : "";
}

/**
 * A row's main line: selection mark, glyph, name (indented under its parent), state word,
 * summary, model and context, pending replies, pin, and time since it changed. Each column is cut to its width as
 * plain text and styled after, so the line is exactly `width` wide without measuring styled text.
 */
export function rowLine(
  entry: RowEntry,
  width: number,
  sinceChange: number,
  selected: boolean,
  grouped: "dir" | "state",
) {
  const { row, depth } = entry;
  const look = rowLook(row);
  const waiting = isWaiting(row);
  const indent = depth > 0 ? `${"  ".repeat(depth - 1)}↳ ` : "";
  const nameCol = nameWidth(width);
  // A name other rows share shows the id's start too, so two `planner`s can be told apart.
  const id = entry.sharedName ? ` #${row.id.slice(0, 4)}` : "";
  const plainName = oneLine(indent + row.name);
  const name =
    id && visibleWidth(plainName) + id.length > nameCol
      ? fit(plainName, nameCol - id.length) + id
      : fit(plainName + id, nameCol);
  // Eight columns hold every state word but `interrupted`, which takes its room from the summary.
  const label = look.label.padEnd(8);
  const age = formatAge(sinceChange).padStart(4);
  const unread = unreadReplies(row);
  const pending = unread > 0 ? `✉${unread} ` : "";
  const pin = row.pinned ? "⚑ " : "";
  const meta = agentMeta(row);
  const rightWidth = meta.length + pending.length + pin.length + age.length;
  // mark, space, glyph, space, name, space, label, space | summary, space | right
  const summaryWidth = width - (nameCol + 6 + label.length) - rightWidth - 1;
  const mark = selected ? bold("›") : " ";
  const nameStyled = waiting ? bold(name) : name;
  const summary =
    summaryWidth > 0 ? `${fit(rowText(row, entry.parentName, grouped === "state"), summaryWidth)} ` : "";
  const right = `${dim(meta)}${pending ? magenta(pending) : ""}${pin ? yellow(pin) : ""}${dim(age)}`;
  let line = `${mark} ${look.colour(look.glyph)} ${nameStyled} ${look.colour(label)} ${summary}${right}`;
  if (summaryWidth <= 0) line = fit(line, width); // Narrower than the columns: cut the styled line.
  if (selected) return selectedBackground(line);
  return waiting ? waitingBackground(line) : line;
}

/**
 * Under a row: the reply held because it asked nothing (or something else) when it came. It is sent
 * only when sent as the answer to what the agent asks now (Enter opens the reply with it).
 */
export function heldLine(row: JobRow, width: number, selected: boolean): string | null {
  if (!row.held) return null;
  const how = asksUser(row)
    ? "it asks now: Enter sends it as the answer, or edit it"
    : "not typed: it asked nothing when it came";
  const line = fit(
    `      ⏸ held ${yellow(JSON.stringify(oneLine(row.held.text)))} ${dim(`(${how})`)}`,
    width,
  );
  return selected ? selectedBackground(line) : line;
}

/** An editor line: a prompt, then the text with the cursor drawn, scrolled to keep it in view. */
export function editorLine(prompt: string, editor: LineEditor, width: number): string {
  const room = Math.max(1, width - visibleWidth(prompt) - 1);
  const text = editor.text;
  const start = Math.max(0, editor.cursor - room + 1);
  const shown = text.slice(start, start + room);
  const at = editor.cursor - start;
  const cursorChar = shown[at] ?? " ";
  const drawn = shown.slice(0, at) + inverse(cursorChar) + shown.slice(at + 1);
  return fit(`${prompt}${drawn}`, width);
}

/** The row's editor line, drawn in place under it while replying or renaming. */
export function inPlaceEditorLine(
  kind: "reply" | "steer" | "rename",
  editor: LineEditor,
  width: number,
  /** What sending it will do besides ("resumes NAME"). */
  note: string | null = null,
): string {
  const said = note === null ? "" : ` · ${note}`;
  const prompt =
    kind === "rename"
      ? "    ⤷ rename › "
      : kind === "steer"
        ? `    ⤷ steer${said} › `
        : `    ⤷ reply${said} › `;
  return editorLine(bold(cyan(prompt)), editor, width);
}

export function groupLine(label: string, count: number, width: number): string {
  return grey(fit(`▾ ${oneLine(label)} (${count})`, width));
}
