// The lines under a waiting row and the one-key picks they allow: a digit picks only a choice the
// screen shows, the details show the whole question and every choice with its key.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { askLines, wrapPlain } from "../src/hub/ask-lines.js";
import { type HubActions, handleKey } from "../src/hub/hub-input.js";
import { type HubState, initialHubState } from "../src/hub/hub-state.js";
import { renderHub } from "../src/hub/hub-view.js";
import type { DescribeResult } from "../src/protocol/describe.js";
import type { JobRow } from "../src/protocol/rows.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

/** An observation as `warren play` asks it: several lines, a dozen choices. */
const WARREN_QUESTION = [
  "Last: move_to workshop → accepted, outcome ok.",
  "[t=0s] You are Sam the engineer (engineer-1) at Workshop (workshop). You woke because the run has started.",
  "You carry: nothing (0/10 kg).",
  "Items here: toolbox-1 (toolbox, 4 kg), plank-1 (plank, 8 kg)",
  "Reply with a choice's number or a command (move_to PLACE | take ITEM | repair | sleep MS | noop); within 30 s.",
].join("\n");
const WARREN_CHOICES = [
  "move_to bridge",
  "move_to depot",
  "move_to river",
  "take toolbox-1",
  "take plank-1",
  "take plank-2",
  "drop rope-1",
  "repair",
  "take rope-2",
  "take rope-3",
  "sleep 5000",
  "noop",
];
const CLAUDE_QUESTION = "Bash command · echo hi > x.txt · Run the command · Do you want to proceed?";
const CLAUDE_CHOICES = [
  "Yes",
  "Yes, and always allow access to roost-cli-project-SCe14u/ from this project",
  "No",
];

const asks = (id: string, question: string, choices: string[], extra: Partial<JobRow> = {}) =>
  jobRow(id, { state: "blocked", status: "waiting", waitingFor: "question", question, choices, ...extra });

function stateWith(rows: JobRow[]): HubState {
  const state = initialHubState();
  state.connection = "connected";
  state.rows = new Map(rows.map((r) => [r.id, r]));
  return state;
}

function recorder() {
  const calls: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      calls.push(`${name} ${args.map(String).join(" | ")}`);
  const actions = new Proxy({} as HubActions, { get: (_t, name) => record(String(name)) });
  return { calls, actions };
}

describe("a waiting row's lines", () => {
  test("a short question and its choices take one line, each choice drawn", () => {
    const ask = askLines(asks("a", "Proceed?", ["yes", "no"]), 80, false);
    assert.deepEqual(
      ask.lines.map((l) => plain(l).trimEnd()),
      ["      ? Proceed?  1 yes  2 no"],
    );
    assert.deepEqual(
      ask.drawn.map((d) => d.n),
      [1, 2],
    );
  });

  test("closed, choices that do not fit are counted, not cut, and none is drawn", () => {
    for (const width of [80, 120]) {
      const ask = askLines(asks("w", WARREN_QUESTION, WARREN_CHOICES), width, false);
      assert.equal(ask.lines.length, 1);
      assert.match(plain(ask.lines[0]!), /· 12 choices$/);
      assert.deepEqual(ask.drawn, []);
    }
  });

  test("open, the question gets three lines and each of the nine keyed choices is drawn whole", () => {
    for (const width of [80, 120]) {
      const ask = askLines(asks("w", WARREN_QUESTION, WARREN_CHOICES), width, true);
      const lines = ask.lines.map(plain);
      for (const line of lines) assert.ok(visibleWidth(line) <= width, `fits ${width}: ${line}`);
      assert.match(lines[0]!, /^ {6}\? Last: move_to workshop/);
      assert.match(lines[2]!, /…$/, "the question's rest is in the details");
      const text = lines.join("\n");
      for (const [i, choice] of WARREN_CHOICES.slice(0, 9).entries())
        assert.ok(text.includes(`${i + 1} ${choice}`), `choice ${i + 1} drawn at ${width}`);
      assert.doesNotMatch(text, /take rope-3/, "past nine: no key");
      assert.match(lines.at(-1)!, /\+3 more: Enter types one, i lists them/);
      assert.deepEqual(
        ask.drawn.map((d) => d.n),
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
    }
  });

  test("open, a choice longer than the line wraps under itself and counts as drawn on its last line", () => {
    const ask = askLines(asks("c", CLAUDE_QUESTION, CLAUDE_CHOICES), 60, true);
    const lines = ask.lines.map(plain);
    const second = lines.findIndex((l) => l.includes("2 Yes, and always"));
    assert.ok(second > 0 && lines[second + 1]!.startsWith("          "), lines.join("\n"));
    assert.equal(ask.drawn.find((d) => d.n === 2)!.line, second + 1);
    assert.ok(lines.some((l) => l.trim() === "3 No"));
  });

  test("text is wrapped at spaces, its own line breaks kept, escape sequences gone whole", () => {
    assert.deepEqual(wrapPlain("one two three\n\nfour\x1b[2J", 9), ["one two", "three", "", "four"]);
    assert.deepEqual(wrapPlain("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
  });
});

describe("one-key picks from what the screen shows", () => {
  test("the selected row's choices are drawn at 80×24 and 120×35, and a digit sends the one drawn with its question", () => {
    for (const [width, height] of [
      [80, 24],
      [120, 35],
    ] as const) {
      const state = stateWith([
        asks("w", WARREN_QUESTION, WARREN_CHOICES),
        asks("c", CLAUDE_QUESTION, CLAUDE_CHOICES, { order: 1 }),
      ]);
      const { calls, actions } = recorder();
      const screen = renderHub(state, width, height, NOW).map(plain).join("\n");
      assert.match(screen, /4 take toolbox-1/);
      handleKey(state, "4", actions, 10);
      assert.deepEqual(calls, [`pick w | take toolbox-1 | ${WARREN_QUESTION}`]);
      // The other row, selected: its choices are drawn in turn.
      state.selectedId = "c";
      const next = renderHub(state, width, height, NOW).map(plain).join("\n");
      assert.match(next, /3 No/);
      handleKey(state, "3", actions, 10);
      assert.equal(calls[1], `pick c | No | ${CLAUDE_QUESTION}`);
    }
  });

  test("a choice cut off at the bottom of the list is not picked: the person is told where to see it", () => {
    const state = stateWith([asks("w", WARREN_QUESTION, WARREN_CHOICES)]);
    const { calls, actions } = recorder();
    // Eight lines: the list has five, the row and its question take four, one choice line shows.
    const screen = renderHub(state, 80, 8, NOW).map(plain).join("\n");
    assert.match(screen, /1 move_to bridge/);
    assert.doesNotMatch(screen, /9 take rope-2/);
    handleKey(state, "9", actions, 10);
    assert.deepEqual(calls, []);
    assert.match(state.notice!.text, /Choice 9 of w is not shown, so 9 picks nothing: i shows every choice/);
    handleKey(state, "1", actions, 10);
    assert.deepEqual(calls, [`pick w | move_to bridge | ${WARREN_QUESTION}`]);
  });

  test("a menu changed after it was drawn: the digit sends what was shown, with the question it answered", () => {
    const state = stateWith([asks("a", "Proceed?", ["yes", "no"])]);
    const { calls, actions } = recorder();
    renderHub(state, 80, 24, NOW);
    state.rows.set("a", asks("a", "Delete it all?", ["no", "yes"]));
    handleKey(state, "2", actions, 10);
    assert.deepEqual(calls, ["pick a | no | Proceed?"]);
  });

  test("a row whose choices were never drawn (the screen not drawn yet) picks nothing", () => {
    const state = stateWith([asks("a", "Proceed?", ["yes", "no"])]);
    const { calls, actions } = recorder();
    handleKey(state, "1", actions, 10);
    assert.deepEqual(calls, []);
    assert.match(state.notice!.text, /not shown/);
  });
});

describe("the details of a row that asks", () => {
  const described = (row: JobRow): DescribeResult => ({
    row,
    command: ["warren", "play"],
    lastLines: [],
    parent: null,
    children: [],
    sameName: [],
    events: [],
  });

  test("the whole question, wrapped, and every choice with its key; a digit picks a choice shown there", () => {
    const row = asks("w", WARREN_QUESTION, WARREN_CHOICES);
    const state = stateWith([row]);
    state.mode = { kind: "detail", id: "w", scroll: 0 };
    state.detail = { id: "w", result: described(row), error: null };
    const lines = renderHub(state, 80, 40, NOW).map(plain);
    for (const line of lines) assert.ok(visibleWidth(line) <= 80);
    const text = lines.map((l) => l.replace(/^│|│$/g, "").trim()).join(" ");
    for (const part of WARREN_QUESTION.split("\n"))
      assert.ok(text.includes(part), `the question has: ${part}`);
    for (const [i, choice] of WARREN_CHOICES.entries()) {
      const key = i < 9 ? String(i + 1) : "·";
      assert.ok(
        lines.some((l) => l.includes(`${key} ${choice}`)),
        `${key} ${choice}`,
      );
    }
    assert.match(text, /choices past 9 have no key/);
    const { calls, actions } = recorder();
    handleKey(state, "5", actions, 10);
    assert.deepEqual(calls, [`pick w | take plank-1 | ${WARREN_QUESTION}`]);
  });

  test("choices scrolled out of the details are not picked", () => {
    const row = asks("w", WARREN_QUESTION, WARREN_CHOICES);
    const state = stateWith([row]);
    state.mode = { kind: "detail", id: "w", scroll: 40 };
    state.detail = { id: "w", result: described(row), error: null };
    renderHub(state, 80, 12, NOW);
    const { calls, actions } = recorder();
    handleKey(state, "1", actions, 10);
    assert.deepEqual(calls, []);
    assert.match(state.notice!.text, /not shown/);
  });
});
