import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { choicesFor, QUESTION_LIMITS, questionFor } from "../src/play/question.js";
import { readCommand, writeCommand } from "../src/play/written-command.js";
import { engineerStart } from "./helpers/play-table.js";

describe("written commands", async () => {
  const { envelope, briefing } = await engineerStart();
  const catalog = briefing.tool_catalog;

  it("reads each kind of command against the catalogue", () => {
    assert.deepEqual(readCommand("take toolbox-1", [], catalog), {
      payload: { action: "take", args: { item: "toolbox-1" } },
      written: "take toolbox-1",
    });
    assert.deepEqual(readCommand(" repair ", [], catalog), {
      payload: { action: "repair", args: {} },
      written: "repair",
    });
    assert.deepEqual(readCommand("sleep 5000", [], catalog), {
      payload: { sleep_ms: 5000 },
      written: "sleep 5000",
    });
    assert.deepEqual(readCommand("noop", [], catalog), { payload: { noop: true }, written: "noop" });
    const said = readCommand("message courier-1 the planks are at the barn", [], catalog);
    assert.deepEqual("payload" in said && said.payload, {
      action: "message",
      args: { to: "courier-1", text: "the planks are at the barn" },
    });
    const json = readCommand('message {"to": "lookout-1", "text": "hi"}', [], catalog);
    assert.deepEqual("payload" in json && json.payload, {
      action: "message",
      args: { to: "lookout-1", text: "hi" },
    });
  });

  it("takes a choice's number, and says which numbers there are", () => {
    const choices = choicesFor(envelope, briefing);
    const pick = readCommand(String(choices.indexOf("take toolbox-1") + 1), choices, catalog);
    assert.deepEqual("payload" in pick && pick.payload, { action: "take", args: { item: "toolbox-1" } });
    assert.deepEqual(readCommand(String(choices.length + 1), choices, catalog), {
      error: `${choices.length + 1} is not a choice: pick 1 to ${choices.length}, or type a command`,
    });
  });

  it("answers clearly when a command does not fit", () => {
    const cases: [string, RegExp][] = [
      ["take", /args is missing the required field "item" for take \(usage: take ITEM\)/],
      ["repair now", /repair takes no arguments \(usage: repair\); "now" is one too many/],
      [
        "fly tower",
        /"fly" is not a command; answer with a choice's number or one of: move_to DEST, take ITEM/,
      ],
      ["sleep soon", /sleep takes a whole number of sim milliseconds from 1 to 86400000 \(got "soon"\)/],
      ["sleep 0", /from 1 to 86400000/],
      ["sleep 86400001", /from 1 to 86400000/],
      ["noop please", /noop takes nothing/],
      ["message {oops", /message's arguments are not a JSON object/],
      ["", /the reply is empty/],
    ];
    for (const [text, error] of cases) {
      const read = readCommand(text, [], catalog);
      assert.ok("error" in read, text);
      assert.match(read.error, error, text);
    }
    assert.ok("payload" in readCommand("sleep 86400000", [], catalog));
  });

  it("writes what it reads back the same", () => {
    for (const payload of [
      { action: "move_to", args: { dest: "bridge" } },
      { action: "message", args: { to: "courier-1", text: "two words" } },
      { action: "message", args: { to: "a b", text: '"quoted"' } },
      { action: "repair", args: {} },
      { sleep_ms: 3 },
      { noop: true as const },
    ]) {
      const read = readCommand(writeCommand(payload, catalog), [], catalog);
      assert.deepEqual("payload" in read && read.payload, payload);
    }
  });

  it("asks within a roost row's limits: the suggestions, a sleep and a noop", () => {
    const question = questionFor(envelope, briefing, "Last: noop → accepted.");
    assert.ok(question.question.length <= QUESTION_LIMITS.question);
    assert.ok(question.summary.length <= QUESTION_LIMITS.summary);
    assert.deepEqual(question.choices.slice(-2), ["sleep 5000", "noop"]);
    assert.ok(question.choices.includes("take toolbox-1"));
    assert.match(question.question, /^Last: noop → accepted\.\n\[t=0s\] You are Sam/);
    assert.doesNotMatch(question.question, /Answer with exactly one command/);
    const many = {
      ...envelope,
      affordances: Array.from({ length: 30 }, (_, i) => ({
        action: "move_to",
        params: {},
        suggestions: [{ dest: `place-${i}` }],
      })),
    };
    const long = { ...many, text: "x".repeat(5000) };
    const fitted = questionFor(long, briefing, "");
    assert.equal(fitted.choices.length, QUESTION_LIMITS.choices);
    assert.deepEqual(fitted.choices.slice(-2), ["sleep 5000", "noop"]);
    assert.equal(fitted.question.length <= QUESTION_LIMITS.question, true);
    assert.match(fitted.question, /…\nReply with a choice's number/);
  });
});
