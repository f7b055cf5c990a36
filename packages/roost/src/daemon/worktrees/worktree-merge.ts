/**
 * Bringing a job's work into a branch of the main checkout: merge, squash or rebase, all made with
 * git's plumbing first (`merge-tree --write-tree`, `commit-tree`, a cherry-pick in a scratch
 * worktree) and landed with one fast-forward, so a refusal (a conflict, the person's uncommitted
 * changes in the way) leaves every checkout as it was: never a half-done merge.
 */
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FileChange,
  type MergeStrategy,
  RoostError,
  type WorktreeRecord,
} from "../../protocol/index.js";
import { GitFailure, git } from "./git.js";
import { commitOf } from "./repository.js";
import { commitTree, identityEnv } from "./snapshot.js";
import { conflictsOf, numstat, workState } from "./worktree-status.js";

export interface MergeRequest {
  name: string;
  strategy: MergeStrategy;
  into: string;
  message: string | null;
  commitAgentChanges: boolean;
  dryRun: boolean;
}

export interface MergePlan {
  files: FileChange[];
  /** The commit `into` points at once merged (null on a dry run). */
  commit: string | null;
  committedAgentChanges: boolean;
}

/** Where each branch is checked out: `refs/heads/x` → the checkout's folder. */
async function checkoutsByBranch(repository: string): Promise<Map<string, string>> {
  const out = (await git(repository, ["worktree", "list", "--porcelain"])).stdout;
  const found = new Map<string, string>();
  for (const block of out.split("\n\n")) {
    const path = /^worktree (.+)$/m.exec(block)?.[1];
    const branch = /^branch (.+)$/m.exec(block)?.[1];
    if (path && branch) found.set(branch, path);
  }
  return found;
}

/** Paths with changes not committed in `checkout` (untracked included). */
async function dirtyPaths(checkout: string): Promise<Set<string>> {
  const out = (await git(checkout, ["status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"]))
    .stdout;
  return new Set(
    out
      .split("\0")
      .filter(Boolean)
      .map((entry) => entry.slice(3)),
  );
}

function listed(paths: string[]): string {
  const shown = paths.slice(0, 10).join(", ");
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}

/** The agent's uncommitted changes, committed on its branch in its worktree. */
async function commitAgentChanges(wt: WorktreeRecord, name: string): Promise<string> {
  const env = await identityEnv(wt.path);
  await git(wt.path, ["add", "--all", "--", "."]);
  await git(
    wt.path,
    ["commit", "--quiet", "--no-verify", "-m", `${name}: uncommitted changes, committed by roost merge`],
    {
      env,
    },
  );
  return (await git(wt.path, ["rev-parse", "HEAD"])).stdout.trim();
}

/** The branch's commits since `mergeBase` replayed on `onto`, in a scratch worktree removed after. */
async function rebasedCommit(
  wt: WorktreeRecord,
  onto: string,
  mergeBase: string,
  head: string,
): Promise<string> {
  const scratch = join(tmpdir(), `roost-rebase-${randomBytes(4).toString("hex")}`);
  await git(wt.repository, ["worktree", "add", "--quiet", "--detach", "--", scratch, onto]);
  try {
    try {
      await git(scratch, ["cherry-pick", "--allow-empty", `${mergeBase}..${head}`], {
        env: await identityEnv(scratch),
      });
    } catch (err) {
      if (!(err instanceof GitFailure)) throw err;
      const conflicted = (await git(scratch, ["diff", "--name-only", "--diff-filter=U"])).stdout
        .trim()
        .split("\n");
      throw new RoostError(
        "merge_conflict",
        `the branch does not rebase cleanly onto it: ${listed(conflicted.filter(Boolean))}`,
      );
    }
    return (await git(scratch, ["rev-parse", "HEAD"])).stdout.trim();
  } finally {
    await git(wt.repository, ["worktree", "remove", "--force", "--force", "--", scratch]).catch(() => {});
  }
}

/**
 * Plans the merge, refuses what would lose or half-do anything, and (unless a dry run) lands it.
 * `keep` is given the branch's tip once the merge is made and before it lands: a failure there
 * (the store cannot write) leaves `into` where it was.
 */
export async function mergeWork(
  wt: WorktreeRecord,
  request: MergeRequest,
  keep: (head: string) => Promise<void>,
): Promise<MergePlan> {
  const { into, name } = request;
  const intoCommit = await commitOf(wt.repository, `refs/heads/${into}`);
  if (intoCommit === null)
    throw new RoostError("unknown_base", `no branch ${JSON.stringify(into)} to merge into`);
  const state = await workState(wt, into);
  if (state.uncommitted.length > 0 && !request.commitAgentChanges)
    throw new RoostError(
      "unsaved_work",
      `${wt.branch} has ${state.uncommitted.length} uncommitted file(s) in its worktree (${listed(state.uncommitted.map((f) => f.path))}): ` +
        "the agent commits them, or merge with --commit-agent-changes",
    );
  const { tree, conflicts } = await conflictsOf(wt.repository, intoCommit, state.work);
  if (conflicts.length)
    throw new RoostError(
      "merge_conflict",
      `${wt.branch} does not merge cleanly into ${into}: conflicts in ${listed(conflicts)}`,
    );
  const files = await numstat(wt.repository, intoCommit, tree);
  const checkouts = await checkoutsByBranch(wt.repository);
  // Where `into` is checked out (the main checkout, or a parent job's worktree) it lands there.
  const landing = checkouts.get(`refs/heads/${into}`) ?? null;
  if (landing !== null) {
    const dirty = await dirtyPaths(landing);
    const touched = files.map((f) => f.path).filter((p) => dirty.has(p));
    if (touched.length)
      throw new RoostError(
        "checkout_dirty",
        `the checkout of ${into} (${landing}) has uncommitted changes the merge would touch: ${listed(touched)}; commit or stash them first`,
      );
  }
  const committedAgentChanges = state.uncommitted.length > 0;
  if (request.dryRun) return { files, commit: null, committedAgentChanges };

  const head = committedAgentChanges ? await commitAgentChanges(wt, name) : state.head;
  let commit: string;
  if (files.length === 0) commit = intoCommit;
  else if (request.strategy === "squash")
    commit = await commitTree(
      wt.repository,
      tree,
      [intoCommit],
      request.message ?? `${name}: ${wt.branch}, squashed`,
    );
  else if (request.strategy === "rebase") commit = await rebasedCommit(wt, intoCommit, state.mergeBase, head);
  else
    commit = await commitTree(
      wt.repository,
      tree,
      [intoCommit, head],
      request.message ?? `Merge branch '${wt.branch}' into ${into} (${name})`,
    );
  await keep(head);
  if (landing !== null) await git(landing, ["merge", "--ff-only", "--quiet", commit]);
  else await git(wt.repository, ["update-ref", `refs/heads/${into}`, commit, intoCommit]);
  return { files, commit, committedAgentChanges };
}
