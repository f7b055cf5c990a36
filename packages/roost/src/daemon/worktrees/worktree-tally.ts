/**
 * A worktree's changed files, kept between reads: a full read from git fills it (`worktreeRow`), and
 * an edit the watch names updates only the files it touched, by comparing each with its version at
 * the merge base and at the branch's tip, so that fifty busy agents cost the daemon the files they
 * write, not a scan of every checkout. A commit, a staged change, a folder or a path git would have
 * to judge (ignored?) goes back to a full read; so does a worktree gone quiet, for its mergeability.
 */
import { lstat, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange, WorktreeRow } from "../../protocol/index.js";
import { statOf } from "../../protocol/index.js";
import { git } from "./git.js";
import { lineChanges } from "./line-changes.js";
import type { ObjectReader } from "./object-reader.js";

export interface Tally {
  /** The commits compared against: the merge base (for the counts) and the branch's tip. */
  mergeBase: string;
  head: string;
  /** Each changed file against the merge base, by path. */
  files: Map<string, FileChange>;
  /** The paths that differ from the tip (uncommitted). */
  uncommitted: Set<string>;
}

/** What the worktree holds at `path` now: its bytes (a link's target), null when absent, or a folder. */
async function onDisk(root: string, path: string): Promise<Buffer | null | "folder"> {
  const full = join(root, path);
  const stat = await lstat(full).catch(() => null);
  if (!stat) return null;
  if (stat.isDirectory()) return "folder";
  if (stat.isSymbolicLink()) return Buffer.from(await readlink(full));
  return stat.isFile() ? readFile(full).catch(() => null) : null;
}

const same = (a: Buffer | null, b: Buffer | null) => (a === null ? b === null : b !== null && a.equals(b));

/**
 * Updates the tally for edits of `paths` (relative to the worktree); false when a full read must
 * be made instead (a folder changed, a path git must judge, a file too changed to count here).
 */
export async function tallyEdits(
  tally: Tally,
  root: string,
  objects: ObjectReader,
  paths: Iterable<string>,
): Promise<boolean> {
  for (const path of paths) {
    const now = await onDisk(root, path);
    if (now === "folder") return false;
    const [atBase, atHead] = await Promise.all([
      objects.read(tally.mergeBase, path),
      tally.head === tally.mergeBase ? null : objects.read(tally.head, path),
    ]);
    const tip = tally.head === tally.mergeBase ? atBase : atHead;
    // A file git does not track yet may be one it ignores: git says, for the worktree.
    if (now !== null && atBase === null && tip === null && !tally.files.has(path)) {
      const ignored = await git(root, ["check-ignore", "-q", "--", path], { allow: [1] });
      if (ignored.code === 0) continue;
    }
    if (same(now, atBase)) tally.files.delete(path);
    else {
      const counts = lineChanges(atBase, now);
      if (!counts) return false;
      tally.files.set(path, { path, ...counts });
    }
    if (same(now, tip)) tally.uncommitted.delete(path);
    else tally.uncommitted.add(path);
  }
  return true;
}

/** The row's counts from the tally (the rest of the row as the last full read left it). */
export function rowFromTally(tally: Tally, row: WorktreeRow): WorktreeRow {
  return {
    ...row,
    ...statOf([...tally.files.values()]),
    uncommitted: tally.uncommitted.size,
    merged: row.merged && tally.uncommitted.size === 0,
  };
}
