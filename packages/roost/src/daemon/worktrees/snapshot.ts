/**
 * A checkout's whole state as a tree: committed, staged, unstaged and untracked together, made with
 * a copy of its index so that the checkout itself (its index, its files) is never touched.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { git } from "./git.js";

/** Who roost's own commits (a snapshot, saved work) are by when the repository names nobody. */
const ROOST_IDENTITY = { name: "roost", email: "roost@localhost" };

/** The committer to give git: the repository's own when it has one, else roost's. */
export async function identityEnv(checkout: string): Promise<Record<string, string>> {
  const { code } = await git(checkout, ["config", "user.email"], { allow: [1] });
  if (code === 0) return {};
  return {
    GIT_AUTHOR_NAME: ROOST_IDENTITY.name,
    GIT_AUTHOR_EMAIL: ROOST_IDENTITY.email,
    GIT_COMMITTER_NAME: ROOST_IDENTITY.name,
    GIT_COMMITTER_EMAIL: ROOST_IDENTITY.email,
  };
}

/** The tree of everything in the checkout now (ignored files left out, as git leaves them). */
export async function snapshotTree(checkout: string): Promise<string> {
  const index = resolve(checkout, (await git(checkout, ["rev-parse", "--git-path", "index"])).stdout.trim());
  const scratch = `${index}.roost-${randomBytes(4).toString("hex")}`;
  try {
    // A copy keeps the index's file stats: `add -A` then reads only what changed.
    try {
      copyFileSync(index, scratch);
    } catch {
      // No index yet (nothing staged ever): `add -A` makes one from nothing.
    }
    const env = { GIT_INDEX_FILE: scratch };
    await git(checkout, ["add", "--all", "--", "."], { env });
    return (await git(checkout, ["write-tree"], { env })).stdout.trim();
  } finally {
    rmSync(scratch, { force: true });
  }
}

/** A commit of `tree` on `parent` (not on any branch until a ref is set to it). */
export async function commitTree(
  checkout: string,
  tree: string,
  parents: string[],
  message: string,
): Promise<string> {
  const args = ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message];
  return (await git(checkout, args, { env: await identityEnv(checkout) })).stdout.trim();
}
