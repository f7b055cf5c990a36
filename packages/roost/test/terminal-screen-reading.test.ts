// Reading a row from a screen: the prompts roost knows, titles, frames, and where the cursor is.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScreenSnapshot } from "../src/daemon/host/api.js";
import { readScreen } from "../src/daemon/terminal/screen-reading.js";

function screen(lines: string[], cursor?: { x: number; y: number }, title = ""): ScreenSnapshot {
  const last = lines.length - 1;
  return {
    lines: [...lines, "", ""],
    cursor: cursor ?? { x: lines[last]!.length, y: last },
    cols: 80,
    rows: lines.length + 2,
    title,
    alternate: false,
    bracketedPaste: false,
    lastOutputAt: 0,
  };
}

test("a [Y/n] or (yes/no) prompt at the bottom is a question with its two answers", () => {
  const yn = readScreen(screen(["Installing 3 packages", "Continue? [Y/n] "]));
  assert.equal(yn.question, "Continue? [Y/n]");
  assert.deepEqual(yn.choices, ["y", "n"]);
  const yesNo = readScreen(screen(["Overwrite file.txt (yes/no)"]));
  assert.deepEqual(yesNo.choices, ["yes", "no"]);
  // Further up the screen, it was asked and answered before.
  const old = readScreen(screen(["Continue? [Y/n] y", "installing"]));
  assert.equal(old.question, null);
  assert.equal(old.summary, "installing");
});

test("a numbered menu offers its items with their numbers; a cursor marker is the highlighted item", () => {
  const menu = readScreen(screen(["Do you trust this folder?", "❯ 1. Yes, proceed", "  2. No, exit", ""]));
  assert.equal(menu.question, "Do you trust this folder?");
  assert.deepEqual(menu.choices, ["Yes, proceed", "No, exit"]);
  assert.deepEqual(
    menu.dialog?.items.map((item) => item.key),
    ["1", "2"],
  );
  assert.equal(menu.dialog?.highlighted, 0);
  // A list that does not start at 1, or one item alone, is no menu.
  assert.equal(readScreen(screen(["3) three", "4) four"])).question, null);
  assert.equal(readScreen(screen(["1) only"])).question, null);
});

test("a line ending in ? is a question only with the cursor after it", () => {
  const open = readScreen(screen(["What should the branch be called? "]));
  assert.equal(open.question, "What should the branch be called?");
  assert.deepEqual(open.choices, []);
  const printed = readScreen(screen(["Why did it fail?", "$ "], { x: 2, y: 1 }));
  assert.equal(printed.question, null);
});

test("the title is the summary when set; frames and rules are not meaningful lines", () => {
  assert.equal(readScreen(screen(["working"], undefined, "fixing the tests")).summary, "fixing the tests");
  const framed = readScreen(screen(["│ Files: 3 │", "compiling main.c", "──────────", "╰────╯"]));
  assert.equal(framed.summary, "compiling main.c");
  assert.equal(readScreen(screen([""])).summary, null);
});

test("blockedPatterns match from the bottom; a named group question is the question", () => {
  const patterns = [/^Waiting for (?<question>approval of .+)$/u];
  const read = readScreen(screen(["Waiting for approval of the plan", "(press enter)"]), patterns);
  assert.equal(read.question, "approval of the plan");
  assert.equal(readScreen(screen(["nothing to approve"]), patterns).question, null);
});

test("long lines are cut to the spec's limits", () => {
  const read = readScreen(screen([`${"x".repeat(3000)}?`]));
  assert.equal(read.question?.length, 2000);
  assert.equal(read.summary?.length, 500);
});
