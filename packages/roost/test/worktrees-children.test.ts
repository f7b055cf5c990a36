import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { speakFor } from "./helpers/a2a.js";
import { git } from "./helpers/git-repo.js";
import { worktreeSuite } from "./helpers/worktree-suite.js";

const s = worktreeSuite();

test("a child spawned by a job in a worktree branches from the parent's branch, names it in its report, and merges into it", async () => {
  const parent = await s.call("dispatch", { profile: "mute", name: "parent", cwd: s.repo, worktree: true });
  const parentRow = await s.rowNamed("parent", (r) => r.worktree !== null, "the parent's worktree");
  const p = await speakFor(s.daemon, parent.id);
  try {
    const spawned = await p.request("spawn", { task: "from the child", profile: "committer", name: "child" });
    assert.equal(spawned.ok, true, JSON.stringify(spawned));
    const child = await s.rowNamed("child", (r) => r.worktree?.ahead === 1, "the child's commit");
    assert.equal(child.worktree!.base, "roost/parent");
    assert.equal(child.worktree!.into, "roost/parent");
    assert.notEqual(child.cwd, parentRow.cwd, "a worktree of its own");

    const c = await speakFor(s.daemon, spawned.result.id);
    const back = await c.request("handback", { state: "done", result: "finished" });
    assert.equal(back.ok, true, JSON.stringify(back));
    const report = await p.nextEvent((e) => e.event === "deliver" && e.kind === "report");
    assert.match(report.text, /worktree: roost\/child ↑1 ↓0 · 1 file \+1 −1 · mergeable/);
    c.close();

    const merged = await s.call("merge", { id: "child" });
    assert.equal(merged.into, "roost/parent");
    assert.equal(
      readFileSync(join(parentRow.cwd, "shared.txt"), "utf8"),
      "from the child\n",
      "landed in the parent's worktree",
    );
    assert.equal(readFileSync(join(s.repo, "shared.txt"), "utf8"), "base\n", "main is untouched");
    assert.equal(git(s.repo, "rev-parse", "roost/parent^1"), git(s.repo, "rev-parse", "main"));
    assert.equal(git(s.repo, "rev-parse", "roost/parent^2"), git(s.repo, "rev-parse", "roost/child"));
  } finally {
    p.close();
  }
});
