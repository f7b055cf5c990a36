import { formatAge } from "../hub/age.js";
import { isWaiting, rowLook, rowSays, unreadReplies } from "../hub/row-look.js";
import type { JobRow } from "../protocol/rows.js";
import { terminalSafe } from "../protocol/terminal-text.js";
import { worktreeLine } from "../protocol/worktree-text.js";

const HEADER = ["ID", "NAME", "STATE", "✉", "AGE", "SAYS"];
/** Shown when some job has a worktree: its branch and work, before what it says. */
const WORKTREE_HEADER = "WORKTREE";

/** A stopped job asks nothing: only a waiting row shows its question (and its choices). */
function says(row: JobRow): string {
  if (isWaiting(row) && row.question) {
    const choices = row.choices.map((c, i) => `${i + 1} ${c}`).join(", ");
    return `${row.question}${choices ? ` (${choices})` : ""}`;
  }
  return rowSays(row);
}

const columns = (text: string) => [...text].length;

/**
 * `head`, then an agent's text made safe for the terminal: its later lines go on under its first,
 * indented to it.
 */
export function hangingLines(head: string, text: string): string {
  const indent = " ".repeat(columns(head));
  return head + terminalSafe(text, { lines: true }).split("\n").join(`\n${indent}`);
}

/** The rows as a table: a header, then one line a job, columns aligned, in the hub's words. */
export function rowsTable(rows: JobRow[], now = Date.now()): string {
  const worktrees = rows.some((row) => row.worktree);
  const cells = rows.map((row) => [
    row.id,
    `${row.pinned ? "⚑ " : ""}${terminalSafe(row.name)}`,
    rowLook(row).label,
    unreadReplies(row) > 0 ? String(unreadReplies(row)) : "",
    // The session's age: since it was dispatched (the SAYS column tells what it does now).
    formatAge(now - Date.parse(row.createdAt)),
    ...(worktrees ? [row.worktree ? terminalSafe(worktreeLine(row.worktree)) : ""] : []),
    terminalSafe(says(row)),
  ]);
  const header = worktrees ? [...HEADER.slice(0, -1), WORKTREE_HEADER, HEADER.at(-1)!] : HEADER;
  return alignedTable([header, ...cells]);
}

/** Under the table, when jobs went down with the process host: how to bring them back. */
export function interruptedLine(rows: JobRow[]): string | null {
  const count = rows.filter((row) => row.lifecycle === "interrupted").length;
  if (count === 0) return null;
  const jobs = count === 1 ? "1 job was" : `${count} jobs were`;
  return `${jobs} interrupted (roost or the machine went down): roost resume --all brings each back, taking up its conversation; roost resume NAME… those named`;
}

/** Lines of cells as columns two spaces apart; the columns `right` names are aligned to the right. */
export function alignedTable(table: string[][], right: ReadonlySet<number> = new Set()): string {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((line) => columns(line[c] ?? ""))));
  return table
    .map((line) =>
      line
        .map((cell, c) => {
          const pad = " ".repeat(widths[c]! - columns(cell));
          if (right.has(c)) return pad + cell;
          return c === line.length - 1 ? cell : cell + pad;
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
