import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { git } from "./helpers/git-repo.js";
import { worktreeSuite } from "./helpers/worktree-suite.js";

const s = worktreeSuite();
const dispatch = (profile: string, task: string, name: string, extra: object = {}) =>
  s.call("dispatch", { profile, task, cwd: s.repo, name, worktree: true, ...extra });

test("two agents in worktrees of one repository: each diff shows its own change, one merges, the other is refused", async () => {
  const { repo } = s;
  const a = await s.roostJson(
    "dispatch",
    "committer",
    "alpha",
    "--worktree",
    "--cwd",
    repo,
    "--name",
    "alpha",
  );
  await dispatch("committer", "beta", "beta");
  const rowA = await s.rowNamed(
    "alpha",
    (r) => r.worktree?.ahead === 1 && r.worktree.files === 1,
    "alpha's commit",
  );
  const rowB = await s.rowNamed(
    "beta",
    (r) => r.worktree?.ahead === 1 && r.worktree.files === 1,
    "beta's commit",
  );
  assert.equal(rowA.worktree!.branch, "roost/alpha");
  assert.equal(rowB.worktree!.branch, "roost/beta");
  assert.notEqual(rowA.cwd, repo, "the agent runs in its worktree, not the main checkout");
  assert.equal(readFileSync(join(rowA.cwd, "shared.txt"), "utf8"), "alpha\n");
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "base\n", "the main checkout is untouched");
  assert.deepEqual([rowA.worktree!.added, rowA.worktree!.removed, rowA.worktree!.mergeable], [1, 1, true]);

  const diffA = await s.call("diff", { id: a.id });
  assert.deepEqual(diffA.files, [{ path: "shared.txt", added: 1, removed: 1 }]);
  assert.match(diffA.patch, /^\+alpha$/m);
  assert.doesNotMatch(diffA.patch, /beta/);
  const diffB = await s.roostJson("diff", "beta", "--stat");
  assert.equal(diffB.patch, null);
  assert.deepEqual(diffB.files, [{ path: "shared.txt", added: 1, removed: 1 }]);
  const human = await s.daemon.cli(["diff", "beta"]);
  assert.match(human.stdout, /^\+beta$/m);
  assert.match(human.stdout, /^ shared\.txt {2}\+1 −1$/m);
  assert.doesNotMatch(human.stdout, /\x1b/, "no colour when the output is not a terminal");

  const before = git(repo, "rev-parse", "main");
  const dry = await s.call("merge", { id: "alpha", dryRun: true });
  assert.equal(dry.dryRun, true);
  assert.equal(git(repo, "rev-parse", "main"), before);
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "base\n", "a dry run changes nothing");

  const merged = await s.roostJson("merge", "alpha");
  assert.equal(merged.into, "main");
  assert.deepEqual(merged.files, [{ path: "shared.txt", added: 1, removed: 1 }]);
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "alpha\n");
  assert.equal(git(repo, "status", "--porcelain"), "", "the main checkout is clean after the merge");
  assert.equal(git(repo, "rev-parse", "HEAD^1"), before, "a merge commit on main");
  await s.rowNamed("alpha", (r) => r.worktree?.merged === true, "alpha's row to say merged");
  // Main moved: beta's row says it conflicts now.
  await s.rowNamed("beta", (r) => r.worktree?.mergeable === false, "beta's row to say it conflicts");

  const head = git(repo, "rev-parse", "HEAD");
  assert.match(await s.refused("merge_conflict", "merge", "beta"), /conflicts in shared\.txt/);
  assert.equal(git(repo, "rev-parse", "HEAD"), head, "the refused merge left main where it was");
  assert.equal(git(repo, "status", "--porcelain"), "", "and the main checkout unchanged");
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "alpha\n");
  await s.refusedOp("merge_conflict", "merge", { id: "beta", strategy: "rebase" });
  assert.equal(git(repo, "rev-parse", "HEAD"), head);
  assert.equal(git(repo, "worktree", "list").split("\n").length, 3, "no scratch worktree is left behind");
});

test("a merge is refused when the main checkout has uncommitted changes it would touch; others are kept", async () => {
  const { repo } = s;
  await dispatch("committer", "gamma", "gamma", { base: "main" });
  await s.rowNamed("gamma", (r) => r.worktree?.ahead === 1, "gamma's commit");
  writeFileSync(join(repo, "shared.txt"), "the person's own edit\n");
  const head = git(repo, "rev-parse", "HEAD");
  assert.match(await s.refusedOp("checkout_dirty", "merge", { id: "gamma" }), /shared\.txt/);
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "the person's own edit\n");
  assert.equal(git(repo, "rev-parse", "HEAD"), head);
  git(repo, "checkout", "--", "shared.txt");
  writeFileSync(join(repo, "other.txt"), "edited, not committed\n");
  const squashed = await s.call("merge", { id: "gamma", strategy: "squash", message: "gamma's work" });
  assert.equal(squashed.strategy, "squash");
  assert.equal(git(repo, "log", "-1", "--format=%s"), "gamma's work");
  assert.equal(git(repo, "rev-list", "--count", `${head}..HEAD`), "1", "a squash is one commit on main");
  assert.equal(
    readFileSync(join(repo, "other.txt"), "utf8"),
    "edited, not committed\n",
    "the person's edit is kept",
  );
  git(repo, "checkout", "--", "other.txt");
  await s.rowNamed("gamma", (r) => r.worktree?.merged === true, "gamma's row to say merged after a squash");
});

test("a rebase replays the branch's commits on main", async () => {
  const { repo } = s;
  await dispatch("committer", "epsilon", "epsilon", { base: "main" });
  await s.rowNamed("epsilon", (r) => r.worktree?.ahead === 1, "epsilon's commit");
  git(repo, "commit", "--quiet", "--allow-empty", "-m", "main moves on");
  const head = git(repo, "rev-parse", "HEAD");
  const rebased = await s.call("merge", { id: "epsilon", strategy: "rebase" });
  assert.equal(git(repo, "rev-parse", "HEAD^"), head, "the replayed commit sits on main's tip");
  assert.equal(git(repo, "log", "-1", "--format=%s"), "epsilon");
  assert.equal(rebased.commit, git(repo, "rev-parse", "HEAD"));
  assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "epsilon\n");
});
