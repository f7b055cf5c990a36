/** A job's worktree in words: the same short line for `roost ls`, the hub's row and a hand-back. */
import type { FileChange, RmResult, WorktreeRow } from "./worktrees.js";

/** `3 files +10 −2` (a binary file counts as a file, with no lines). */
export function statText(files: Pick<WorktreeRow, "files" | "added" | "removed">): string {
  return `${files.files} file${files.files === 1 ? "" : "s"} +${files.added} −${files.removed}`;
}

/** One file's counts: `+3 −1`, or `binary`. */
export function fileCounts(file: FileChange): string {
  return file.added === null ? "binary" : `+${file.added} −${file.removed}`;
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

/** What a removal did beyond the job: its branch kept or deleted, its work saved, a worktree left. */
export function removalNotes(result: RmResult): string[] {
  return [
    ...(result.branch
      ? [result.branchDeleted ? `branch ${result.branch} deleted` : `branch ${result.branch} kept`]
      : []),
    ...(result.saved ? [`uncommitted changes saved on ${result.saved}`] : []),
    ...(result.kept ? [`its worktree could not be removed and stays in ${result.kept}`] : []),
  ];
}

/** A patch line's part: a file's header, a line added or removed, a hunk's head, or context (null). */
export function patchLineKind(line: string): "file" | "add" | "remove" | "hunk" | null {
  if (/^(\+\+\+|---|diff |index )/.test(line)) return "file";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "remove";
  if (line.startsWith("@@")) return "hunk";
  return null;
}

/** Said under a patch cut at `LIMITS.diffBytes`. */
export const DIFF_CUT_NOTE = "(cut: the diff is longer than roost shows; run git diff in the worktree)";
