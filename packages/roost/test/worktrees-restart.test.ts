import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { worktreeSuite } from "./helpers/worktree-suite.js";

const s = worktreeSuite();

test("a restarted daemon keeps each job's worktree; a deleted worktree folder is said, never made again", async () => {
  await s.call("dispatch", { profile: "committer", task: "beta", cwd: s.repo, name: "beta", worktree: true });
  const before = await s.rowNamed("beta", (r) => r.worktree?.ahead === 1, "beta's commit");
  await s.daemon.kill();
  await s.daemon.start();
  const after = await s.rowNamed("beta", (r) => r.worktree?.ahead === 1, "beta's row after the restart");
  assert.equal(after.worktree!.path, before.worktree!.path);
  assert.equal(after.cwd, before.cwd);
  // Watched again: a new change shows on the row.
  writeFileSync(join(after.worktree!.path, "more.txt"), "more\n");
  await s.rowNamed(
    "beta",
    (r) => r.worktree?.uncommitted === 1 && r.worktree.files === 2,
    "the new file on the row",
  );
  await s.call("respawn", { id: "beta" });
  // Its commit made (more.txt with it) before the folder goes: a write racing the removal would
  // leave the folder half there.
  const respawned = await s.rowNamed(
    "beta",
    (r) => r.lifecycle === "running" && r.worktree?.ahead === 2 && r.worktree.uncommitted === 0,
    "beta running again, its commit made",
  );
  assert.equal(respawned.cwd, before.cwd, "a respawn keeps the worktree");

  rmSync(after.worktree!.path, { recursive: true, force: true });
  await s.rowNamed("beta", (r) => r.worktree?.missing === true, "beta's row to say its worktree is gone");
  assert.match(await s.refusedOp("worktree_missing", "respawn", { id: "beta" }), /is gone/);
  assert.equal(existsSync(after.worktree!.path), false, "not made again");
  const ls = await s.daemon.cli(["ls"]);
  assert.match(ls.stdout, /roost\/beta .*worktree deleted/);
  // A gone worktree holds nothing to lose: rm takes it, the branch kept.
  const removed = await s.call("rm", { id: "beta" });
  assert.equal(removed.branch, "roost/beta");
});
