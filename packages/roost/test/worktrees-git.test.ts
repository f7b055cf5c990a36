import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseGitVersion, requireGit } from "../src/daemon/worktrees/git.js";
import { RepositoryQueue } from "../src/daemon/worktrees/repository-queue.js";

const dir = mkdtempSync(join(tmpdir(), "roost-git-"));
after(() => {
  delete process.env.ROOST_GIT;
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(): Promise<{ code: string; message: string }> {
  try {
    await requireGit();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error("git was taken");
}

test("a missing git, and one older than 2.38, are named in the error", async () => {
  process.env.ROOST_GIT = join(dir, "no-such-git");
  const missing = await refusal();
  assert.equal(missing.code, "git_unavailable");
  assert.match(
    missing.message,
    /git is not installed \(no ".*no-such-git" on the PATH\); worktrees need git 2\.38 or newer/,
  );

  const old = join(dir, "old-git");
  writeFileSync(old, '#!/bin/sh\necho "git version 2.37.7"\n');
  chmodSync(old, 0o755);
  process.env.ROOST_GIT = old;
  const tooOld = await refusal();
  assert.equal(tooOld.code, "git_unavailable");
  assert.match(tooOld.message, /is git version 2\.37\.7; worktrees need git 2\.38 or newer/);

  // At the edge: 2.38 itself is taken.
  writeFileSync(old, '#!/bin/sh\necho "git version 2.38.0"\n');
  assert.equal(await requireGit(), "git version 2.38.0");
  delete process.env.ROOST_GIT;
  assert.match(await requireGit(), /^git version 2\.\d+/, "Debian's git");
});

test("git's version text is read as major and minor", () => {
  assert.deepEqual(parseGitVersion("git version 2.39.5\n"), [2, 39]);
  assert.deepEqual(parseGitVersion("git version 3.0.0.windows.1"), [3, 0]);
  assert.equal(parseGitVersion("hub version 2.14"), null);
});

test("one repository's operations run one at a time, in order; another repository's do not wait", async () => {
  const queue = new RepositoryQueue();
  const order: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const first = queue.run("a", async () => {
    order.push("a1 start");
    await held;
    order.push("a1 end");
  });
  const second = queue.run("a", async () => {
    order.push("a2");
    throw new Error("a2 fails");
  });
  const third = queue.run("a", async () => order.push("a3"));
  await queue.run("b", async () => order.push("b1"));
  assert.deepEqual(order, ["a1 start", "b1"], "b runs while a's first holds");
  release();
  await first;
  await assert.rejects(second, /a2 fails/);
  await third;
  assert.deepEqual(order, ["a1 start", "b1", "a1 end", "a2", "a3"], "a failure does not stop the queue");
});
