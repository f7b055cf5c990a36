/**
 * What a job's worktree holds against its base, read from git without touching the checkout: the
 * changed files and lines (committed, staged, unstaged and untracked together), commits ahead and
 * behind, and whether it would merge cleanly (`merge-tree --write-tree`).
 */
import { existsSync } from "node:fs";
import { type FileChange, statOf, type WorktreeRecord, type WorktreeRow } from "../../protocol/index.js";
import { git } from "./git.js";
import { commitOf } from "./repository.js";
import { commitTree, snapshotTree } from "./snapshot.js";
import type { Tally } from "./worktree-tally.js";

/** The worktree's whole state: its branch's tip, and that tip with its uncommitted changes on top. */
export interface WorkState {
  head: string;
  /** `head` when nothing is uncommitted, else a commit (on no branch) of everything on top of it. */
  work: string;
  uncommitted: FileChange[];
  /** What `into` (or the base commit, with no branch to merge into) is now. */
  target: string;
  mergeBase: string;
}

/** `git diff --numstat -z` → files and counts (`-` counts: a binary file). */
export function parseNumstat(out: string): FileChange[] {
  const files: FileChange[] = [];
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (entry === "") continue;
    const [added, removed, path] = entry.split("\t");
    // A rename's paths come as the two next fields (`-z` with an empty path here).
    const name = path === "" ? fields[(i += 2)]! : path!;
    const count = (n: string | undefined) => (n === undefined || n === "-" ? null : Number(n));
    files.push({ path: name, added: count(added), removed: count(removed) });
  }
  return files;
}

export async function numstat(checkout: string, from: string, to: string): Promise<FileChange[]> {
  const out = await git(checkout, ["diff", "--numstat", "-z", "--no-renames", from, to, "--"]);
  return parseNumstat(out.stdout);
}

/** The ref a worktree's work is measured and merged against: `into` when it names a branch. */
export async function targetOf(wt: WorktreeRecord, into?: string | null): Promise<string> {
  const branch = into ?? wt.into;
  if (branch) {
    const commit = await commitOf(wt.repository, `refs/heads/${branch}`);
    if (commit !== null) return commit;
  }
  return wt.baseCommit;
}

export async function workState(wt: WorktreeRecord, into?: string | null): Promise<WorkState> {
  const head = (await git(wt.path, ["rev-parse", "HEAD"])).stdout.trim();
  const tree = await snapshotTree(wt.path);
  const uncommitted = await numstat(wt.path, head, tree);
  const work = uncommitted.length ? await commitTree(wt.path, tree, [head], "roost: uncommitted work") : head;
  const target = await targetOf(wt, into);
  const mergeBase =
    (await git(wt.path, ["merge-base", target, work], { allow: [1] })).stdout.trim() || wt.baseCommit;
  return { head, work, uncommitted, target, mergeBase };
}

/** Conflicting files of merging `work` into `target`, or null when it merges cleanly. */
export async function conflictsOf(
  checkout: string,
  target: string,
  work: string,
): Promise<{ tree: string; conflicts: string[] }> {
  const out = await git(
    checkout,
    ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", target, work],
    {
      allow: [1],
    },
  );
  const [tree, ...names] = out.stdout.split("\0").filter(Boolean);
  return { tree: tree!, conflicts: out.code === 0 ? [] : [...new Set(names)] };
}

/** What a row shows of a worktree before git has been read for it. */
export function firstRow(wt: WorktreeRecord): WorktreeRow {
  return {
    branch: wt.branch,
    base: wt.base,
    into: wt.into,
    path: wt.path,
    ahead: 0,
    behind: 0,
    files: 0,
    added: 0,
    removed: 0,
    uncommitted: 0,
    mergeable: null,
    conflicts: [],
    merged: false,
    missing: false,
    error: null,
  };
}

/** The row's figures for a worktree now; a folder that is gone says `missing`. */
export async function worktreeRow(wt: WorktreeRecord, before: WorktreeRow | null): Promise<WorktreeRow> {
  return (await readWorktree(wt, before)).row;
}

/** The row read whole from git, and the changed files it counts (none when git could not say). */
export async function readWorktree(
  wt: WorktreeRecord,
  before: WorktreeRow | null,
): Promise<{ row: WorktreeRow; tally: Tally | null }> {
  const row = { ...(before ?? firstRow(wt)), into: wt.into, error: null };
  if (!existsSync(wt.path)) return { row: { ...row, missing: true }, tally: null };
  try {
    const state = await workState(wt);
    const files = await numstat(wt.path, state.mergeBase, state.work);
    const counts = (
      await git(wt.path, ["rev-list", "--left-right", "--count", `${state.target}...${state.head}`])
    ).stdout;
    const [behind, ahead] = counts.trim().split(/\s+/).map(Number);
    const { conflicts } = wt.into ? await conflictsOf(wt.path, state.target, state.work) : { conflicts: [] };
    const tally: Tally = {
      mergeBase: state.mergeBase,
      head: state.head,
      files: new Map(files.map((f) => [f.path, f])),
      uncommitted: new Set(state.uncommitted.map((f) => f.path)),
    };
    const read: WorktreeRow = {
      ...row,
      missing: false,
      ahead: ahead ?? 0,
      behind: behind ?? 0,
      ...statOf(files),
      uncommitted: state.uncommitted.length,
      mergeable: wt.into ? conflicts.length === 0 : null,
      conflicts,
      merged:
        state.uncommitted.length === 0 &&
        (wt.mergedHead === state.head || (ahead === 0 && state.head !== wt.baseCommit)),
    };
    return { row: read, tally };
  } catch (err) {
    return { row: { ...row, missing: !existsSync(wt.path), error: (err as Error).message }, tally: null };
  }
}
