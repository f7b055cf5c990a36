import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { git } from "./helpers/git-repo.js";
import { worktreeSuite } from "./helpers/worktree-suite.js";

const s = worktreeSuite();
const dispatch = (profile: string, task: string, name: string, extra: object = {}) =>
  s.call("dispatch", { profile, task, cwd: s.repo, name, worktree: true, ...extra });

test("uncommitted agent work: merge asks for --commit-agent-changes; rm refuses, --force saves it and keeps the branch", async () => {
  const { repo } = s;
  await dispatch("committer", "beta", "beta");
  const w = await dispatch("writer", "delta", "delta");
  const row = await s.rowNamed("delta", (r) => r.worktree?.uncommitted === 1, "delta's uncommitted file");
  assert.deepEqual([row.worktree!.files, row.worktree!.added, row.worktree!.ahead], [1, 1, 0]);
  assert.match(
    (await s.call("diff", { id: "delta" })).patch,
    /^\+delta$/m,
    "untracked files are in the diff",
  );
  assert.match(await s.refusedOp("unsaved_work", "merge", { id: "delta" }), /--commit-agent-changes/);
  const dry = await s.call("merge", { id: "delta", dryRun: true, commitAgentChanges: true });
  assert.equal(dry.committedAgentChanges, true);
  assert.equal(existsSync(join(repo, "new.txt")), false);

  assert.match(await s.refused("unsaved_work", "rm", "delta"), /1 uncommitted file/);
  assert.ok(existsSync(row.worktree!.path), "a refused rm leaves the worktree");
  const removed = await s.daemon.cli(["rm", "delta", "--force"]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(
    removed.stdout,
    `removed ${w.id}; branch roost/delta kept; uncommitted changes saved on roost/saved/delta\n`,
  );
  assert.equal(existsSync(row.worktree!.path), false, "the worktree folder is gone");
  assert.equal(git(repo, "show", "roost/saved/delta:new.txt"), "delta", "the uncommitted change is saved");
  assert.ok(git(repo, "rev-parse", "--verify", "roost/delta"), "the branch is kept");
  const { branches } = await s.call("branches", { cwd: repo });
  const names = branches.map((b: { branch: string }) => b.branch);
  for (const kept of ["roost/delta", "roost/saved/delta", "roost/beta"])
    assert.ok(names.includes(kept), names.join(", "));
  assert.equal(branches.find((b: { branch: string }) => b.branch === "roost/beta").job.name, "beta");

  await dispatch("writer", "zeta", "zeta");
  await s.rowNamed("zeta", (r) => r.worktree?.uncommitted === 1, "zeta's uncommitted file");
  const committed = await s.call("merge", { id: "zeta", commitAgentChanges: true });
  assert.equal(committed.committedAgentChanges, true);
  assert.equal(readFileSync(join(repo, "new.txt"), "utf8"), "zeta\n");
});

test("a merged job's rm needs no --force; --delete-branch deletes its branch", async () => {
  await dispatch("committer", "alpha", "alpha");
  await s.rowNamed("alpha", (r) => r.worktree?.ahead === 1, "alpha's commit");
  await s.call("merge", { id: "alpha" });
  const out = await s.call("rm", { id: "alpha", deleteBranch: true });
  assert.equal(out.branchDeleted, true);
  assert.equal(git(s.repo, "branch", "--list", "roost/alpha"), "");
});
