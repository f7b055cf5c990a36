// The agent readers on screens recorded from the real programs (Claude Code 2.1.197, Codex 0.171.0,
// pi 0.73.1's TUI):
// their prompts, working lines, dialogs (question with its command, choices without decorations,
// the highlighted one) and last answers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { choiceIndex } from "../src/daemon/terminal/choosing.js";
import { READERS, readerFor } from "../src/daemon/terminal/reader-choice.js";
import { readScreen } from "../src/daemon/terminal/screen-reading.js";
import { recordedScreen } from "./helpers/recorded-screen.js";

const claude = READERS.claude!;
const codex = READERS.codex!;
const pi = READERS.pi!;
const read = (name: string, reader = name.startsWith("codex") ? codex : claude, title = "") =>
  readScreen(recordedScreen(name, title), [], reader);

test("a reader is picked by the profile's reader, else by the command's name", () => {
  assert.equal(readerFor(undefined, ["/home/me/.local/bin/claude"]).name, "claude");
  assert.equal(readerFor(undefined, ["/bin/sh", "-c", "codex --full-auto"]).name, "codex");
  assert.equal(readerFor(undefined, ["python3", "agent.py"]).name, "generic");
  assert.equal(readerFor("codex", ["./wrapper.sh"]).name, "codex");
});

test("Claude Code idle at its prompt waits for the person, its last answer as the text", () => {
  const answered = read("claude-answered", claude, "✳ Fake session title");
  assert.equal(answered.input, "prompt");
  assert.equal(answered.summary, "ANSWER: say hello");
  assert.equal(answered.question, null);
  // Before any answer: the title, without its spinner glyph.
  const fresh = read("claude-prompt", claude, "✳ Fake session title");
  assert.equal(fresh.input, "prompt");
  assert.equal(fresh.summary, "Fake session title");
  // Text typed and not sent is still at the prompt; the status line's "● high" is no answer.
  assert.equal(read("claude-typed-unsent", claude).input, "prompt");
  assert.equal(read("claude-typed-unsent", claude).summary, null);
});

test("Claude Code working shows its step; the spinner's turn changes nothing", () => {
  const working = read("claude-working");
  const next = read("claude-working-next");
  assert.equal(working.working, true);
  assert.equal(working.input, null);
  assert.equal(working.summary, "Pollinating…");
  assert.deepEqual(next, working);
});

test("Claude Code's permission dialog: the command in the question, choices and the highlight", () => {
  const bash = read("claude-bash");
  assert.equal(bash.question, "Bash command · echo hi > x.txt · Run the command · Do you want to proceed?");
  assert.deepEqual(bash.choices, ["Yes", "Yes, and always allow access to proj/ from this project", "No"]);
  assert.equal(bash.dialog?.kind, "menu");
  assert.equal(bash.dialog?.highlighted, 0);
  assert.equal(bash.input, null);
  assert.equal(read("claude-bash-on-no").dialog?.highlighted, 2);
  assert.equal(choiceIndex(bash.dialog!, "no"), 2);
  assert.equal(choiceIndex(bash.dialog!, "3"), 2);
  assert.equal(choiceIndex(bash.dialog!, "maybe"), -1);
});

test("Claude Code's first-run screens are dialogs, each with its own question", () => {
  const trust = read("claude-trust");
  assert.equal(
    trust.question,
    "Accessing workspace: · /src/me/proj2 · Quick safety check: Is this a project you created or one you trust?",
  );
  assert.deepEqual(trust.choices, ["Yes, I trust this folder", "No, exit"]);
  const key = read("claude-api-key");
  assert.match(key.question!, /Do you want to use this API key\?$/);
  assert.deepEqual(key.choices, ["Yes", "No (recommended)"]);
  assert.equal(key.dialog?.highlighted, 1);
  // A menu with a preview below it; the current choice's "✔" is no part of its text.
  const theme = read("claude-theme");
  assert.equal(
    theme.question,
    "Choose the text style that looks best with your terminal · To change this later, run /theme",
  );
  assert.equal(theme.choices[1], "Dark mode");
  assert.equal(theme.dialog?.highlighted, 1);
  const security = read("claude-security");
  assert.equal(security.question, "Security notes: · Press Enter to continue…");
  assert.deepEqual(security.choices, ["continue"]);
  assert.equal(security.dialog?.kind, "continue");
});

test("Codex idle at its prompt, working, and its last answer", () => {
  const fresh = read("codex-prompt", codex, "Fake session title | xproj");
  assert.equal(fresh.input, "prompt");
  const working = read("codex-working");
  assert.equal(working.working, true);
  assert.equal(working.summary, "Working");
  assert.equal(working.input, null);
  const answered = read("codex-answered");
  assert.equal(answered.input, "prompt");
  assert.equal(answered.summary, "ANSWER: SLOW say hello");
});

test("Codex starting up: the input line under its logo is no prompt yet (a trust screen may follow it)", () => {
  const splash = read("codex-splash", codex);
  assert.equal(splash.input, null);
  assert.equal(splash.dialog, null);
  // Once its status line shows below, the same input line is the prompt, the logo still above or not.
  const screen = recordedScreen("codex-splash");
  const lines = [...screen.lines];
  lines[screen.cursor.y + 2] = "  fake-model default · /src/me/xproj";
  assert.equal(readScreen({ ...screen, lines }, [], codex).input, "prompt");
});

test("Codex's approval dialog: the command in the question, choices without their hotkeys", () => {
  const approval = read("codex-approval");
  assert.equal(approval.question, "Would you like to run the following command? · $ echo hi > x.txt");
  assert.deepEqual(approval.choices, [
    "Yes, proceed",
    "Yes, and don't ask again for commands that start with `echo hi > x.txt`",
    "No, and tell Codex what to do differently",
  ]);
  assert.equal(approval.dialog?.highlighted, 0);
  assert.equal(read("codex-approval-on-no").dialog?.highlighted, 2);
  const trust = read("codex-trust");
  assert.equal(trust.question, "Trust this folder?");
  assert.deepEqual(trust.choices, ["Trust and continue", "Back to Agent Command Center"]);
});

test("pi's TUI: its input box between rules, its working line, the answer above the box", () => {
  assert.equal(readerFor(undefined, ["pi", "--model", "fake/fake-model"]).name, "pi");
  const typed = read("pi-typed", pi);
  assert.equal(typed.input, "prompt");
  const working = read("pi-working", pi);
  assert.equal(working.working, true);
  assert.equal(working.input, null);
  assert.equal(working.summary, "Working...");
  assert.deepEqual(read("pi-working-next", pi), working);
  const answered = read("pi-answered", pi);
  assert.equal(answered.input, "prompt");
  assert.equal(answered.summary, "ANSWER: SLOW say hello");
});

test("a dialog answered No: the row says what was refused, not the answer before it", () => {
  const claudeRefused = read("claude-refused");
  assert.equal(claudeRefused.input, "prompt");
  assert.equal(claudeRefused.summary, "refused: Bash(echo hi > x.txt)");
  assert.equal(claudeRefused.question, null);
  const codexRefused = read("codex-refused");
  assert.equal(codexRefused.input, "prompt");
  assert.equal(codexRefused.summary, "refused: echo hi > x.txt");
  // An answer after the refusal is the text again.
  assert.equal(read("claude-answered").summary, "ANSWER: say hello");
});

test("the generic reader keeps its shapes on these screens: a highlighted menu is a dialog", () => {
  const bash = readScreen(recordedScreen("claude-bash"));
  assert.deepEqual(bash.choices, ["Yes", "Yes, and always allow access to proj/ from this project", "No"]);
  assert.equal(bash.dialog?.highlighted, 0);
  assert.equal(bash.input, null);
});

test("a menu item wrapped onto the next line (a narrow terminal) is read whole", () => {
  const lines = [
    "› RUN echo hi > x.txt",
    "",
    "  Would you like to run the following command?",
    "",
    "  $ echo hi > x.txt",
    "",
    "› 1. Yes, proceed (y)",
    "  2. Yes, and don't ask again for commands that start with `echo hi >",
    "     x.txt` (p)",
    "  3. No, and tell Codex what to do differently (esc)",
    "",
    "  Press enter to confirm or esc to cancel",
  ];
  const screen = { ...recordedScreen("codex-approval"), lines, cursor: { x: 79, y: 11 } };
  const approval = readScreen(screen, [], codex);
  assert.equal(approval.question, "Would you like to run the following command? · $ echo hi > x.txt");
  assert.deepEqual(approval.choices, [
    "Yes, proceed",
    "Yes, and don't ask again for commands that start with `echo hi > x.txt`",
    "No, and tell Codex what to do differently",
  ]);
});
