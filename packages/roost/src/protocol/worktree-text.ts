/** A job's worktree in words: the same short line for `roost ls`, the hub's row and a hand-back. */
import type { FileChange, WorktreeRow } from "./worktrees.js";

/** `3 files +10 −2` (a binary file counts as a file, with no lines). */
export function statText(files: Pick<WorktreeRow, "files" | "added" | "removed">): string {
  return `${files.files} file${files.files === 1 ? "" : "s"} +${files.added} −${files.removed}`;
}

/** The counts of a list of changed files. */
export function statOf(files: FileChange[]): Pick<WorktreeRow, "files" | "added" | "removed"> {
  return {
    files: files.length,
    added: files.reduce((n, f) => n + (f.added ?? 0), 0),
    removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
  };
}

/** Whether it merges, in a word or two: `merged`, `mergeable`, `conflicts`, `worktree deleted`. */
export function mergeWord(row: WorktreeRow): string {
  if (row.missing) return "worktree deleted";
  if (row.merged) return "merged";
  if (row.mergeable === true) return "mergeable";
  if (row.mergeable === false) return `conflicts (${row.conflicts.length})`;
  return "";
}

/** `roost/fix ↑2 ↓1 · 3 files +10 −2 · mergeable` */
export function worktreeLine(row: WorktreeRow): string {
  const parts = [`${row.branch} ↑${row.ahead} ↓${row.behind}`, statText(row)];
  const word = mergeWord(row);
  if (word) parts.push(word);
  return parts.join(" · ");
}
