/** Making a job's worktree, saving what it holds uncommitted, and removing it. */
import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { RoostError, type WorktreeRecord } from "../../protocol/index.js";
import { git } from "./git.js";
import { branchExists } from "./repository.js";
import { workState } from "./worktree-status.js";

/** Makes (or checks) the folder worktrees go in: `worktree_root_unwritable` when it cannot be written. */
export function ensureWorktreeRoot(root: string): void {
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    accessSync(root, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw new RoostError(
      "worktree_root_unwritable",
      `worktrees cannot be made in ${root}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} (set worktreeRoot in roost.json to a folder roost can write)`,
    );
  }
}

/** `name`, or `name-2`, `name-3`, ... : the first that is no branch yet. */
export async function freeBranch(checkout: string, name: string): Promise<string> {
  if (!(await branchExists(checkout, name))) return name;
  for (let n = 2; ; n++) if (!(await branchExists(checkout, `${name}-${n}`))) return `${name}-${n}`;
}

/** `git worktree add -b BRANCH PATH BASE`. */
export async function addWorktree(
  checkout: string,
  path: string,
  branch: string,
  baseCommit: string,
): Promise<void> {
  await git(checkout, ["worktree", "add", "--quiet", "-b", branch, "--", path, baseCommit]);
}

/**
 * Saves the worktree's uncommitted changes in a commit on `roost/saved/<name>` (made unique);
 * null when there were none. The worktree itself is left as it is.
 */
export async function saveUncommitted(wt: WorktreeRecord, name: string): Promise<string | null> {
  if (!existsSync(wt.path)) return null;
  const state = await workState(wt);
  if (state.uncommitted.length === 0) return null;
  const ref = await freeBranch(wt.repository, `roost/saved/${name}`);
  await git(wt.repository, ["update-ref", `refs/heads/${ref}`, state.work]);
  return ref;
}

/** Removes the worktree (a folder already gone is pruned); its branch goes only when asked. */
export async function removeWorktree(wt: WorktreeRecord, deleteBranch: boolean): Promise<void> {
  if (existsSync(wt.path))
    await git(wt.repository, ["worktree", "remove", "--force", "--force", "--", wt.path]);
  else await git(wt.repository, ["worktree", "prune"]);
  if (deleteBranch && (await branchExists(wt.repository, wt.branch)))
    await git(wt.repository, ["branch", "-D", "--", wt.branch]);
}
