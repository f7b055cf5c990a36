/** Which git repository a folder is in, and what a base names there: the checks a dispatch makes. */
import { realpathSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { RoostError } from "../../protocol/index.js";
import { GitFailure, git } from "./git.js";

export interface Repository {
  /** The main checkout's folder: where merges land. */
  mainCheckout: string;
  /** The shared `.git` folder (real path): the one key of the repository, for its queue. */
  commonDir: string;
  /** The checkout the folder is in (the main one, or a linked worktree). */
  checkout: string;
}

/** The repository `folder` is in: `not_a_repository` outside one, `bare_repository` in a bare one. */
export async function findRepository(folder: string): Promise<Repository> {
  let out: string;
  try {
    out = (await git(folder, ["rev-parse", "--git-common-dir", "--show-toplevel"])).stdout;
  } catch (err) {
    if (err instanceof GitFailure && /not a git repository/i.test(err.result.stderr))
      throw new RoostError("not_a_repository", `${folder} is not inside a git repository`);
    if (err instanceof GitFailure && /must be run in a work tree/i.test(err.result.stderr))
      throw new RoostError(
        "bare_repository",
        `${folder} is a bare repository: it has no checkout to branch from`,
      );
    throw err;
  }
  const [common, checkout] = out.trim().split("\n") as [string, string];
  const commonDir = realpathSync(resolve(folder, common));
  // The main checkout holds the shared `.git`; one elsewhere (`--separate-git-dir`) is listed first.
  const main =
    basename(commonDir) === ".git"
      ? dirname(commonDir)
      : (/^worktree (.+)$/m.exec((await git(folder, ["worktree", "list", "--porcelain"])).stdout)?.[1] ??
        checkout);
  return { mainCheckout: main, commonDir, checkout };
}

/** The commit `ref` names in `checkout`, or null. */
export async function commitOf(checkout: string, ref: string): Promise<string | null> {
  const { stdout, code } = await git(
    checkout,
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
    {
      allow: [1, 128],
    },
  );
  return code === 0 ? stdout.trim() : null;
}

/**
 * The commit a base names: `no_commits` when it is HEAD and the repository has no commit yet,
 * `unknown_base` when it names none.
 */
export async function resolveBase(checkout: string, base: string): Promise<string> {
  const commit = await commitOf(checkout, base);
  if (commit !== null) return commit;
  // In a repository, HEAD names no commit only on a branch not born yet.
  if (base === "HEAD")
    throw new RoostError(
      "no_commits",
      `the repository at ${checkout} has no commit yet: commit something to branch from`,
    );
  throw new RoostError(
    "unknown_base",
    `${JSON.stringify(base)} names no commit in the repository at ${checkout}`,
  );
}

export async function branchExists(checkout: string, branch: string): Promise<boolean> {
  const { code } = await git(checkout, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], {
    allow: [1],
  });
  return code === 0;
}

/** The branch checked out in `checkout`, or null when its HEAD is detached. */
export async function currentBranch(checkout: string): Promise<string | null> {
  const { stdout, code } = await git(checkout, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
    allow: [1],
  });
  return code === 0 ? stdout.trim() : null;
}

/**
 * The branch a job's work merges into by default: the base when it names a branch, else the branch
 * the checkout the job came from is on (null: detached, `--into` must say).
 */
export async function mergeTargetOf(checkout: string, base: string): Promise<string | null> {
  if (base !== "HEAD" && (await branchExists(checkout, base))) return base;
  if (base === "HEAD") return currentBranch(checkout);
  return null;
}

/** `bad_request` for a name git would not take as a branch. */
export async function checkBranchName(checkout: string, branch: string): Promise<void> {
  const { code } = await git(checkout, ["check-ref-format", "--branch", branch], { allow: [1, 128] });
  if (code !== 0 || branch.startsWith("-"))
    throw new RoostError("bad_request", `${JSON.stringify(branch)} is not a branch name git takes`);
}
