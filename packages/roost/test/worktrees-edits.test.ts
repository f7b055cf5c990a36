// A worktree just made is shown without reading it, and an agent's edits in it are counted from the
// files it touched: the row follows them
// without a whole read from git (no `git add --all` of the checkout per edit), counts what git's
// whole read counts (an edit, a new file, a deletion, a binary file; an ignored file not at all),
// and once the worktree is quiet git reads it whole and agrees.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { git } from "./helpers/git-repo.js";
import { worktreeSuite } from "./helpers/worktree-suite.js";

// Every git the daemon runs goes through this wrapper, which names it in the log first.
const bin = mkdtempSync(join(tmpdir(), "roost-git-log-"));
const log = join(bin, "git.log");
const wrapper = join(bin, "git");
writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec git "$@"\n`);
chmodSync(wrapper, 0o755);
const oldGit = process.env.ROOST_GIT;
process.env.ROOST_GIT = wrapper;
after(() => {
  process.env.ROOST_GIT = oldGit;
  rmSync(bin, { recursive: true, force: true });
});

const s = worktreeSuite();
const wholeReads = () =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("add --all")).length;

test("edits are counted from the files touched, as git counts them, and git's whole read once quiet agrees", async () => {
  writeFileSync(join(s.repo, ".gitignore"), "*.log\n");
  git(s.repo, "add", "-A");
  git(s.repo, "commit", "-qm", "ignore logs");
  await s.call("dispatch", { profile: "idle", cwd: s.repo, name: "editor", worktree: true });
  const first = await s.rowNamed("editor", (r) => r.worktree?.mergeable === true, "the new worktree's row");
  const path = first.worktree!.path;
  // A worktree just made is its base: its row is known without a read of the checkout.
  const { files, ahead, behind, uncommitted } = first.worktree!;
  assert.deepEqual([files, ahead, behind, uncommitted], [0, 0, 0, 0]);
  assert.equal(wholeReads(), 0, "no whole read of a worktree just made");
  const readsBefore = wholeReads();

  writeFileSync(join(path, "shared.txt"), "base\nmore\n");
  writeFileSync(join(path, "new.txt"), "one\ntwo\nthree\n");
  unlinkSync(join(path, "other.txt"));
  writeFileSync(join(path, "data.bin"), Buffer.from([1, 0, 2, 3]));
  writeFileSync(join(path, "debug.log"), "ignored\n");
  const counted = await s.rowNamed(
    "editor",
    (r) => r.worktree?.files === 4 && r.worktree.added === 4 && r.worktree.removed === 1,
    "the edits counted",
  );
  assert.equal(counted.worktree!.uncommitted, 4);
  assert.equal(wholeReads(), readsBefore, "no whole read of the checkout for an edit");

  // A file put back as it was is no change any more.
  writeFileSync(join(path, "shared.txt"), "base\n");
  await s.rowNamed("editor", (r) => r.worktree?.files === 3 && r.worktree.added === 3, "the edit undone");
  assert.equal(wholeReads(), readsBefore);

  // Quiet for 5 s: git reads it whole, and its counts are the same.
  await s.rowNamed("editor", () => wholeReads() > readsBefore, "the whole read once quiet");
  const diff = await s.call("diff", { id: "editor", stat: true });
  const row = (await s.rows()).find((r) => r.name === "editor")!;
  assert.deepEqual(
    [row.worktree!.files, row.worktree!.added, row.worktree!.removed, row.worktree!.uncommitted],
    [3, 3, 1, 3],
  );
  assert.deepEqual(
    diff.files.map((f: { path: string }) => f.path).sort(),
    ["data.bin", "new.txt", "other.txt"],
    "git's whole read counts the same files",
  );
});
