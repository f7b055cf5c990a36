// The hub over a job in a git worktree, at 120×35 and 80×24: `d` shows its diff and follows it as the
// agent changes more, `m` shows what the merge brings before `y` merges it into the main checkout, and a
// merge the work cannot take (uncommitted work) is refused on the status line with main untouched.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { git, makeRepository, WORKTREE_PROFILES } from "./helpers/git-repo.js";
import { startHubHarness } from "./helpers/hub-harness.js";

const ESC = "\x1b";

for (const [columns, rows] of [
  [120, 35],
  [80, 24],
] as const) {
  test(`at ${columns}×${rows}: d shows a worktree job's diff, live; m merges it after y, uncommitted work is refused`, async () => {
    const h = await startHubHarness(columns, rows, { config: { agentProfiles: WORKTREE_PROFILES } });
    try {
      const repo = makeRepository({ "shared.txt": "base\n" }, h.daemon.home);
      const job = await h.raw.request("dispatch", {
        profile: "committer",
        task: "alpha",
        name: "alpha",
        cwd: repo,
        worktree: true,
      });
      assert.equal(job.ok, true, job.error);
      await h.waitForScreen("alpha's worktree on its row", (t) => /roost\/alpha ↑1/.test(t));
      // The agent runs in its worktree: the row's folder.
      const listed = (await h.raw.request("list")).result.rows as { id: string; cwd: string }[];
      const worktree = listed.find((r) => r.id === job.result.id)!.cwd;
      assert.notEqual(worktree, repo);

      h.terminal.type("d");
      await h.waitForScreen("the diff", (t) => /alpha · diff/.test(t) && /^│ \+alpha/m.test(t));
      // The agent changes more: the diff open follows it.
      writeFileSync(join(worktree, "notes.txt"), "more\n");
      await h.waitForScreen("the new file in the diff", (t) => /notes\.txt +\+1 −0/.test(t));
      h.terminal.type(ESC);
      await h.waitForScreen("the list again", (t) => !/alpha · diff/.test(t));

      // Uncommitted work is refused by the dry run, and y merges nothing.
      h.terminal.type("m");
      await h.waitForScreen("the refusal", (t) => /Esc: back · merging alpha is refused/.test(t));
      h.terminal.type("y", ESC);
      assert.equal(git(repo, "log", "-1", "--format=%s"), "start");

      git(worktree, "add", "-A");
      git(worktree, "commit", "-qm", "notes");
      await h.waitForScreen("the committed notes on the row", (t) => /roost\/alpha ↑2/.test(t));
      h.terminal.type("m");
      await h.waitForScreen("what the merge brings", (t) =>
        /Merge roost\/alpha into main\? +y: merge +n: keep · 2 files \+2 −1/.test(t),
      );
      h.terminal.type("y");
      await h.waitForScreen("the merge's outcome", (t) =>
        /Merged roost\/alpha into main: 2 files \+2 −1/.test(t),
      );
      assert.equal(readFileSync(join(repo, "shared.txt"), "utf8"), "alpha\n");
      assert.equal(readFileSync(join(repo, "notes.txt"), "utf8"), "more\n");
      assert.equal(git(repo, "status", "--porcelain"), "", "the main checkout is clean after the merge");
    } finally {
      await h.close();
    }
  });
}
