import assert from "node:assert/strict";
import { test } from "node:test";
import { RunError } from "../src/engine/index.js";
import { createRun } from "../src/scenarios/index.js";
import { RemoteAgent, remoteRun, yardScenario } from "./helpers/engine-runs.js";

test("bridge_repair's briefing for engineer-1 is the spec's example", () => {
  const { run } = remoteRun("bridge_repair", { seed: 3, controlled: ["engineer-1"], npcPolicy: "solution" });
  const b = run.briefing("engineer-1");
  assert.equal(b.briefing_id, "run-1/engineer-1");
  assert.equal(b.revision, 1);
  assert.match(b.content_hash, /^sha256:[0-9a-f]{64}$/);
  assert.equal(b.agent_id, "engineer-1");
  assert.equal(b.role, "engineer");
  assert.equal(b.name, "Sam the engineer");
  assert.equal(b.scenario, "bridge_repair");
  assert.equal(b.premise, "Repair the storm-damaged bridge and resupply the clinic.");
  assert.deepEqual(b.objectives[0], {
    id: "repair",
    description: "Restore the bridge's structural integrity.",
    status: "pending",
    deadline_ms: null,
    progress: { current: 0, target: 2 },
  });
  assert.deepEqual(
    b.tool_catalog.find((t) => t.name === "move_to"),
    {
      name: "move_to",
      description: "Walk to a place, however far.",
      lane: "body",
      durative: true,
      input_schema: {
        type: "object",
        properties: { dest: { type: "string" } },
        required: ["dest"],
        additionalProperties: false,
      },
    },
  );
  assert.deepEqual(b.conventions, {
    grid_naming: "cells are '<space>:<x>,<y>'; x grows east, y grows south",
    sight_radius: 0,
    budgets: { max_sight: 40, max_messages: 12, max_inventory: 20 },
    decision: "answer each observation with exactly one command: an action, a sleep, or a noop",
  });
  assert.match(b.notes, /^A river cuts the valley in two/, "the scenario's notes first");
  assert.match(b.notes, /You are the engineer: only you may carry the toolbox/, "then the role's own");
  // The hash is of the content: another run of the same scenario gives the same one; another agent another.
  const { run: other } = remoteRun("bridge_repair", { seed: 9, controlled: [] });
  assert.equal(other.briefing("engineer-1").content_hash, b.content_hash);
  assert.notEqual(other.briefing("courier-1").content_hash, b.content_hash);
  assert.ok(b.tool_catalog.some((t) => t.name === "repair"));
  assert.ok(
    !run.briefing("courier-1").tool_catalog.some((t) => t.name === "repair"),
    "repair is the engineer's tool",
  );
});

test("the first envelope carries the spec's fields, text and affordances", () => {
  const { run, clock } = remoteRun("bridge_repair", {
    seed: 3,
    controlled: ["engineer-1"],
    npcPolicy: "solution",
  });
  const e = new RemoteAgent(run, "engineer-1").envelope();
  assert.equal(e.run_id, "run-1");
  assert.equal(e.agent_id, "engineer-1");
  assert.equal(e.observation_id, "engineer-1#0");
  assert.equal(e.seq, 0);
  assert.equal(e.sim_time_ms, 0);
  assert.equal(e.reason, "start");
  assert.equal(e.briefing_revision, 1);
  assert.equal(e.deadline_unix, (clock.now() + 60_000) / 1000);
  assert.equal(e.observation.agent, "engineer-1");
  assert.equal(e.observation.time, 0);
  assert.deepEqual(e.observation.busy, []);
  assert.equal(e.observation.you.name, "Sam the engineer");
  assert.equal(e.observation.place.id, "workshop");
  assert.ok(e.observation.place.items.some((i) => i.id === "toolbox-1"));
  assert.ok(e.observation.tools.some((t) => t.action === "take" && t.ready));
  assert.ok(
    e.observation.tools.some((t) => t.action === "drop" && !t.ready && t.why_not === "you carry nothing"),
  );
  assert.match(e.text, /^\[t=0s\] You are Sam the engineer/);
  const take = e.affordances.find((a) => a.action === "take");
  assert.deepEqual(take, {
    action: "take",
    params: { item: { choices: ["toolbox-1"] } },
    suggestions: [{ item: "toolbox-1" }],
  });
  const move = e.affordances.find((a) => a.action === "move_to")!;
  assert.ok(move.params.dest!.choices.includes("bridge"));
  assert.ok(!move.params.dest!.choices.includes("clinic"), "the clinic is across the broken bridge");
  assert.ok(!e.affordances.some((a) => a.action === "drop"), "only ready tools have affordances");
});

test("acceptance is exactly-once; non-accepted verdicts do not occupy the command_id", () => {
  const { run } = remoteRun("bridge_repair", { seed: 3, controlled: ["engineer-1"], npcPolicy: "solution" });
  const observation_id = "engineer-1#0";
  const bad = run.submit("engineer-1", {
    command_id: "c-7d21",
    observation_id,
    action: "take",
    args: { item: 7 },
  });
  assert.equal(bad.status, "rejected");
  assert.equal(bad.outcome, "none");
  assert.match(bad.detail, /args\.item must be a string \(got number 7\)/);
  assert.equal(run.receipt("engineer-1", "c-7d21"), undefined, "a rejected command leaves no ledger entry");
  const again = run.submit("engineer-1", {
    command_id: "c-7d21",
    observation_id,
    action: "take",
    args: { item: 7 },
  });
  assert.deepEqual(again, bad, "an unchanged retry gets the same verdict");
  const ok = run.submit("engineer-1", {
    command_id: "c-7d21",
    observation_id,
    action: "take",
    args: { item: "toolbox-1" },
  });
  assert.deepEqual(ok, {
    command_id: "c-7d21",
    observation_id,
    status: "accepted",
    detail: "",
    outcome: "pending",
    outcome_reason: "",
  });
  // The batch resolved as soon as it was answered: the outcome is in.
  assert.equal(run.receipt("engineer-1", "c-7d21")!.outcome, "accepted");
  const dup = run.submit("engineer-1", {
    command_id: "c-7d21",
    observation_id,
    action: "take",
    args: { item: "toolbox-1" },
  });
  assert.deepEqual(dup, { ...ok, status: "duplicate", outcome: "accepted" });
  const stale = run.submit("engineer-1", { command_id: "c-other", observation_id, noop: true });
  assert.equal(stale.status, "stale");
  assert.match(stale.detail, /already answered by command c-7d21; answer engineer-1#1 instead/);
  assert.equal(run.receipt("engineer-1", "c-other"), undefined);
  const unknown = run.submit("engineer-1", {
    command_id: "c-x",
    observation_id: "engineer-1#99",
    noop: true,
  });
  assert.equal(unknown.status, "rejected");
  assert.match(unknown.detail, /never issued/);
  const foreign = run.submit("engineer-1", { command_id: "c-y", observation_id: "courier-1#0", noop: true });
  assert.equal(foreign.status, "rejected");
  // Verdicts of commands not accepted are on the spectator stream, outside the hashed history;
  // each status once per observation, so the unchanged retry and the second rejection on
  // engineer-1#1 add nothing. The accepted command is its decision event, receipt and all.
  const decision = run.events().find((e) => e.kind === "decision" && e.data.agent === "engineer-1")!;
  assert.deepEqual(decision.receipt, { ...ok, outcome: "accepted" });
  const verdicts = run.events().filter((e) => e.kind === "verdict");
  assert.deepEqual(
    verdicts.map((v) => `${v.data.observation_id} ${v.data.status}`),
    ["engineer-1#0 rejected", "engineer-1#0 duplicate", "engineer-1#0 stale", "engineer-1#99 rejected"],
  );
  assert.ok(verdicts.every((v) => !v.sim));
});

test("ids that are not strings cannot be deduplicated: refused with unprocessable_command", () => {
  const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"] });
  const refused = (body: unknown) =>
    assert.throws(
      () => run.submit("engineer-1", body),
      (e: unknown) => e instanceof RunError && e.code === "unprocessable_command",
    );
  refused({ command_id: 5, observation_id: "engineer-1#0", noop: true });
  refused({ command_id: "c", observation_id: null, noop: true });
  refused(["not", "an", "object"]);
  refused("noop");
  assert.throws(
    () => run.submit("courier-1", { command_id: "c", observation_id: "courier-1#0", noop: true }),
    {
      code: "not_remote",
    },
  );
  assert.throws(() => run.submit("nobody", {}), { code: "unknown_agent" });
  assert.throws(() => run.briefing("nobody"), { code: "unknown_agent" });
});

test("a deadline passing records a noop, expires the observation, and closure is judged before payload", () => {
  // A yard with no deadline, so nothing but the idle wake comes after the noop.
  const { run, clock } = remoteRun(yardScenario(["engineer-1"], 1), {
    controlled: ["engineer-1"],
    decisionTimeoutMs: 5000,
  });
  const first = run.outstanding("engineer-1")!;
  assert.equal(first.deadline_unix, (clock.now() + 5000) / 1000);
  clock.advance(4999);
  assert.equal(
    run.outstanding("engineer-1")?.observation_id,
    "engineer-1#0",
    "still open 1 ms before its deadline",
  );
  clock.advance(1);
  assert.notEqual(run.outstanding("engineer-1")?.observation_id, "engineer-1#0");
  const decision = run.events().find((e) => e.kind === "decision" && e.data.agent === "engineer-1")!;
  assert.deepEqual(decision.data, {
    agent: "engineer-1",
    observation_id: "engineer-1#0",
    noop: true,
    expired: true,
  });
  assert.ok(decision.sim);
  assert.ok(run.events().some((e) => e.kind === "expired" && e.data.observation_id === "engineer-1#0"));
  const late = run.submit("engineer-1", { command_id: "late", observation_id: "engineer-1#0", noop: true });
  assert.equal(late.status, "expired");
  assert.match(late.detail, /decision deadline/);
  const malformed = run.submit("engineer-1", {
    command_id: "late2",
    observation_id: "engineer-1#0",
    sleep_ms: "5000",
  });
  assert.equal(malformed.status, "expired", "closure before payload");
  // The agent's next envelope arrives on its next wake: idle, a minute of sim time later.
  const next = run.outstanding("engineer-1")!;
  assert.equal(next.observation_id, "engineer-1#1");
  assert.equal(next.reason, "idle");
  assert.equal(next.sim_time_ms, 60_000);
});

test("the run ending expires outstanding observations and cancels nothing accepted", async () => {
  const { run, clock } = remoteRun("signal_relay", { controlled: ["runner-1"], npcPolicy: "solution" });
  const runner = new RemoteAgent(run, "runner-1");
  runner.act("move_to", { dest: "gate" });
  const atGate = runner.waitFor((e) => e.observation.you.place === "gate");
  runner.act("message", {
    to: "keeper-1",
    text: `The plate says ${String(atGate.observation.place.features.plate)}.`,
  });
  const gate = runner.waitFor((e) => e.observation.messages.length > 0);
  const code = /(\d{4})/.exec(gate.observation.messages[0]!.text)![1]!;
  const receipt = runner.act("enter_code", { code });
  assert.equal(receipt.outcome, "accepted");
  const summary = await run.whenEnded();
  assert.equal(summary.status, "completed");
  const after = run.submit("runner-1", { command_id: "z", observation_id: gate.observation_id, noop: true });
  assert.equal(after.status, "stale");
  clock.advance(120_000);
  assert.equal(await run.nextObservation("runner-1", -1, 1000), undefined, "no observations on an ended run");
});

test("an ended run's outstanding observation is expired with the reason", async () => {
  const { run } = remoteRun("harvest_rush", { controlled: ["farmer-1"], npcPolicy: "none" });
  const farmer = new RemoteAgent(run, "farmer-1");
  const open = farmer.envelope();
  farmer.send({ sleep_ms: 10_000 });
  const last = farmer.envelope();
  assert.notEqual(last.observation_id, open.observation_id);
  run.dispose("the server is shutting down");
  const summary = await run.whenEnded();
  assert.equal(summary.status, "crashed");
  assert.equal(summary.status_reason, "the server is shutting down");
  const late = run.submit("farmer-1", { command_id: "y", observation_id: last.observation_id, noop: true });
  assert.equal(late.status, "expired");
  assert.match(late.detail, /run ended \(crashed\)/);
});

test("run options are checked: scenario, agents, seed, pace, policy", () => {
  assert.throws(() => createRun({ runId: "x", scenario: "nope", seed: 1 }), { code: "unknown_scenario" });
  assert.throws(
    () => createRun({ runId: "x", scenario: "bridge_repair", seed: 1, controlledAgents: ["ghost"] }),
    {
      code: "unknown_agent",
    },
  );
  assert.throws(() => createRun({ runId: "x", scenario: "bridge_repair", seed: -1 }), {
    code: "invalid_run_options",
  });
  assert.throws(() => createRun({ runId: "x", scenario: "bridge_repair", seed: 1.5 }), {
    code: "invalid_run_options",
  });
  assert.throws(() => createRun({ runId: "x", scenario: "bridge_repair", seed: 1, pace: 0 }), {
    code: "invalid_run_options",
  });
  assert.throws(
    () => createRun({ runId: "x", scenario: "bridge_repair", seed: 1, npcPolicy: "all" as "none" }),
    { code: "invalid_run_options" },
  );
  const run = createRun({ runId: "x", scenario: "bridge_repair", seed: 4294967295, pace: 2.5 });
  assert.equal(run.status, "created");
  assert.equal(run.summary().pace, 2.5);
});
