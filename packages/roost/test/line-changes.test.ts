// Counting a file's added and removed lines without git: the same counts as `git diff --numstat`,
// checked against Debian's git on edits made at random (seeded), binary files and line ends.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { lineChanges } from "../src/daemon/worktrees/line-changes.js";

/** A small generator of the same edits every run. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function numstat(dir: string, before: string | Buffer, after: string | Buffer) {
  writeFileSync(join(dir, "a"), before);
  writeFileSync(join(dir, "b"), after);
  let out = "";
  try {
    out = execFileSync("git", ["diff", "--no-index", "--numstat", "a", "b"], { cwd: dir, encoding: "utf8" });
  } catch (err) {
    // Exit code 1: the files differ, which is the point.
    out = (err as { stdout: string }).stdout;
  }
  const [added, removed] = out.split("\t");
  if (out === "") return { added: 0, removed: 0 };
  return { added: added === "-" ? null : Number(added), removed: removed === "-" ? null : Number(removed) };
}

test("a file's added and removed lines are counted as git counts them", () => {
  const dir = mkdtempSync(join(tmpdir(), "roost-line-changes-"));
  try {
    const random = seeded(7);
    const words = ["alpha", "beta", "gamma", "delta", "", "epsilon"];
    for (let round = 0; round < 60; round++) {
      const lines = Array.from(
        { length: Math.floor(random() * 40) },
        () => words[Math.floor(random() * words.length)]!,
      );
      const edited = [...lines];
      for (let e = Math.floor(random() * 6); e > 0; e--) {
        const at = Math.floor(random() * (edited.length + 1));
        if (random() < 0.4) edited.splice(at, 1);
        else if (random() < 0.7) edited.splice(at, 0, words[Math.floor(random() * words.length)]!);
        else edited[at] = "changed";
      }
      const before = lines.join("\n") + (random() < 0.8 ? "\n" : "");
      const after = edited.join("\n") + (random() < 0.8 ? "\n" : "");
      assert.deepEqual(
        lineChanges(Buffer.from(before), Buffer.from(after)),
        numstat(dir, before, after),
        `round ${round}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
      );
    }
    // A last line without its line end counts as changed, as git shows "\ No newline at end of file".
    assert.deepEqual(lineChanges(Buffer.from("a\nb"), Buffer.from("a\nb\n")), { added: 1, removed: 1 });
    // A new file, a removed one, a binary one.
    assert.deepEqual(lineChanges(null, Buffer.from("one\ntwo\n")), { added: 2, removed: 0 });
    assert.deepEqual(lineChanges(Buffer.from("one\n"), null), { added: 0, removed: 1 });
    assert.deepEqual(lineChanges(Buffer.from("x\n"), Buffer.from([1, 0, 2])), { added: null, removed: null });
    assert.deepEqual(numstat(dir, "x\n", Buffer.from([1, 0, 2])), { added: null, removed: null });
    // Past its bound it says so: git is asked instead.
    const many = (tag: string) => Array.from({ length: 200 }, (_, i) => `${tag}${i}`).join("\n");
    assert.equal(lineChanges(Buffer.from(many("a")), Buffer.from(many("b")), 100), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
