import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_SLEEP_MS } from "../src/engine/index.js";
import { RemoteAgent, remoteRun } from "./helpers/engine-runs.js";

function engineerAlone() {
  const { run } = remoteRun("bridge_repair", { seed: 3, controlled: ["engineer-1"], npcPolicy: "none" });
  return new RemoteAgent(run, "engineer-1");
}

function rejected(agent: RemoteAgent, command: Record<string, unknown>, detail: RegExp): void {
  const before = agent.envelope().observation_id;
  const receipt = agent.send(command);
  assert.equal(receipt.status, "rejected", JSON.stringify(command));
  assert.match(receipt.detail, detail);
  assert.equal(agent.envelope().observation_id, before, "a rejected command changes nothing");
}

test("move_to, take, drop and repair validate their args against the input_schema, naming the JSON path", () => {
  const sam = engineerAlone();
  rejected(sam, { action: "move_to", args: {} }, /^args is missing the required field "dest" for move_to$/);
  rejected(sam, { action: "move_to", args: { dest: 3 } }, /^args\.dest must be a string \(got number 3\)$/);
  rejected(
    sam,
    { action: "move_to", args: { dest: "bridge", speed: 2 } },
    /args has a field "speed" that move_to does not take/,
  );
  rejected(sam, { action: "move_to", args: { dest: "bridge" }, speed: 2 }, /unknown field "speed"/);
  rejected(
    sam,
    { action: "take", args: { item: ["toolbox-1"] } },
    /args\.item must be a string \(got an array\)/,
  );
  rejected(sam, { action: "take", args: { item: true } }, /args\.item must be a string \(got boolean true\)/);
  rejected(sam, { action: "drop", args: {} }, /missing the required field "item" for drop/);
  rejected(sam, { action: "repair", args: { force: true } }, /field "force" that repair does not take/);
  rejected(
    sam,
    { action: "take", args: "toolbox-1" },
    /^args must be an object \(got the string "toolbox-1"\)$/,
  );
  rejected(sam, { action: "take", args: null }, /^args must be an object \(got null\)$/);
  // Nothing is coerced: a number-like string stays a string, and a valid command is accepted.
  assert.equal(sam.act("take", { item: "toolbox-1" }).outcome, "accepted");
});

test("message validates recipient and text, with the length limit at its edge", () => {
  const sam = engineerAlone();
  rejected(
    sam,
    { action: "message", args: { to: "courier-1" } },
    /missing the required field "text" for message/,
  );
  rejected(
    sam,
    { action: "message", args: { to: "courier-1", text: "" } },
    /args\.text must NOT have fewer than 1 characters/,
  );
  rejected(
    sam,
    { action: "message", args: { to: "courier-1", text: "x".repeat(501) } },
    /args\.text must NOT have more than 500/,
  );
  rejected(sam, { action: "message", args: { to: 1, text: "hi" } }, /args\.to must be a string/);
  assert.equal(sam.act("message", { to: "courier-1", text: "x".repeat(500) }).outcome, "accepted");
});

test("enter_code's pattern and type are enforced", () => {
  const { run } = remoteRun("signal_relay", { controlled: ["runner-1"], npcPolicy: "none" });
  const tom = new RemoteAgent(run, "runner-1");
  rejected(
    tom,
    { action: "enter_code", args: { code: "12a4" } },
    /args\.code must match pattern "\^\[0-9\]\{4\}\$"/,
  );
  rejected(tom, { action: "enter_code", args: { code: "12345" } }, /args\.code must match pattern/);
  rejected(
    tom,
    { action: "enter_code", args: { code: 1234 } },
    /args\.code must be a string \(got number 1234\)/,
  );
  assert.equal(
    tom.act("enter_code", { code: "1234" }).outcome,
    "rejected",
    "valid shape; refused by the engine",
  );
});

test("the command's own fields: one of action, sleep_ms or noop, typed, with sleep_ms at its edges", () => {
  const sam = engineerAlone();
  rejected(sam, {}, /needs one of: action \(with args\), sleep_ms, or noop: true/);
  rejected(sam, { action: 5 }, /^action must be a string naming one of your tools \(got number 5\)$/);
  rejected(
    sam,
    { action: "fly" },
    /action "fly" is not one of your tools \(move_to, take, drop, message, repair\)/,
  );
  rejected(sam, { action: "noop" }, /To do nothing, send \{"noop": true\}/);
  rejected(sam, { action: "sleep", args: { ms: 5 } }, /To wait, send \{"sleep_ms": N\}/);
  rejected(
    sam,
    { sleep_ms: "5000" },
    /^sleep_ms must be an integer number of sim milliseconds \(got the string "5000"\)$/,
  );
  rejected(sam, { sleep_ms: 1.5 }, /sleep_ms must be an integer/);
  rejected(sam, { sleep_ms: 0 }, /sleep_ms must be between 1 and 86400000 \(got 0\)/);
  rejected(sam, { sleep_ms: MAX_SLEEP_MS + 1 }, /between 1 and 86400000/);
  rejected(sam, { noop: false }, /noop must be true \(got boolean false\)/);
  rejected(
    sam,
    { noop: true, sleep_ms: 5 },
    /exactly one of action, sleep_ms or noop; this one has sleep_ms and noop/,
  );
  rejected(sam, { sleep_ms: 5, args: {} }, /args goes only with action/);
  rejected(sam, { noop: true, lease: "l-1" }, /unknown field "lease"/);
  const before = sam.envelope();
  assert.equal(sam.send({ sleep_ms: 1 }).status, "accepted");
  const woke = sam.envelope();
  assert.equal(woke.reason, "timer");
  assert.equal(woke.sim_time_ms, before.sim_time_ms + 1);
  assert.equal(sam.send({ sleep_ms: MAX_SLEEP_MS }).status, "accepted");
  // A day's sleep outlasts the scenario's deadlines: the run ends while the engineer sleeps.
  assert.equal(sam.run.status, "failed");
  assert.match(sam.run.statusReason, /objective resupply missed its deadline at t=55s/);
});
