import assert from "node:assert/strict";
import { test } from "node:test";
import { Run, type ScenarioDefinition } from "../src/engine/index.js";
import { findScenario, listScenarios } from "../src/scenarios/index.js";
import { playOne } from "./helpers/discrimination.js";
import { RemoteAgent, remoteRun, yardScenario } from "./helpers/engine-runs.js";

test("the solution team scores time ratio 1, and every role contributes", async () => {
  for (const { name } of listScenarios()) {
    const run = new Run({ runId: "s", scenario: findScenario(name)!, seed: 6 });
    run.start();
    const { scores } = await run.whenEnded();
    assert.equal(scores.completed, true);
    assert.equal(scores.objectives_met, scores.objectives_total);
    assert.equal(scores.time_ratio, 1);
    assert.equal(scores.solution_sim_time_ms, scores.sim_time_ms);
    for (const agent of scores.agents) assert.ok(agent.credits > 0, `${name} ${agent.agent_id} contributes`);
    const total = scores.agents.reduce((sum, a) => sum + a.contribution, 0);
    assert.ok(Math.abs(total - 1) < 0.01, `${name}: contributions add up to 1 (got ${total})`);
  }
});

test("commands, actions, refusals and messages are counted per agent; the final frame carries the scores", async () => {
  const { run } = remoteRun("signal_relay", { seed: 2, controlled: ["runner-1"], npcPolicy: "solution" });
  const tom = new RemoteAgent(run, "runner-1");
  const refusal = tom.send({ action: "enter_code", args: { code: "1111" } });
  assert.equal(run.receipt("runner-1", refusal.command_id)!.outcome, "rejected");
  tom.act("move_to", { dest: "gate" });
  const atGate = tom.waitFor((e) => e.observation.you.place === "gate");
  tom.act("message", { to: "keeper-1", text: `Plate: ${String(atGate.observation.place.features.plate)}` });
  const told = tom.waitFor((e) => e.observation.messages.length > 0);
  tom.act("enter_code", { code: /(\d{4})/.exec(told.observation.messages[0]!.text)![1]! });
  const summary = await run.whenEnded();
  assert.equal(summary.status, "completed");
  const runner = summary.scores.agents.find((a) => a.agent_id === "runner-1")!;
  assert.equal(runner.controller, "remote");
  assert.equal(runner.refusals, 1);
  assert.equal(runner.messages, 1);
  assert.equal(runner.actions, 4, "the refused code, the walk, the message and the right code");
  assert.ok(runner.commands >= runner.actions);
  assert.equal(runner.credits, 3, "reaching the gate, telling the plate and opening the gate");
  assert.ok(summary.scores.time_ratio! >= 1);
  const last = run.events().at(-1)!;
  assert.equal(last.kind, "status");
  assert.deepEqual(last.data.scores, summary.scores);
});

test("a failed run has no time ratio; a baseline's credits stay 0 where it did nothing useful", async () => {
  const summary = await playOne("harvest_rush", 3, "farmer-2", "noop");
  assert.equal(summary.status, "failed");
  assert.equal(summary.scores.completed, false);
  assert.equal(summary.scores.time_ratio, null);
  const idle = summary.scores.agents.find((a) => a.agent_id === "farmer-2")!;
  assert.deepEqual([idle.controller, idle.actions, idle.credits, idle.contribution], ["noop", 0, 0, 0]);
});

test("random and greedy baselines are deterministic: same seed, same hash", async () => {
  for (const policy of ["random", "greedy"] as const) {
    for (const { name, agents } of listScenarios()) {
      const agent = agents[0]!.agent_id;
      const first = await playOne(name, 9, agent, policy);
      const again = await playOne(name, 9, agent, policy);
      assert.equal(again.log_hash, first.log_hash, `${policy} ${name}`);
      const all = await playOne(name, 9, agent, policy, "all");
      const allAgain = await playOne(name, 9, agent, policy, "all");
      assert.equal(allAgain.log_hash, all.log_hash, `${policy} ${name} offering everything`);
    }
  }
});

test("offering every affordance: every tool, every place, no suggestions, and refusals without advice", (t) => {
  const { run } = remoteRun("bridge_repair", { seed: 3, controlled: ["engineer-1"], npcPolicy: "none" });
  const ready = new RemoteAgent(run, "engineer-1").envelope();
  assert.ok(!ready.affordances.some((a) => a.action === "repair"), "ready mode: repair is not ready yet");
  const all = new Run({
    runId: "a",
    scenario: findScenario("bridge_repair")!,
    seed: 3,
    controlledAgents: ["engineer-1"],
    npcPolicy: "none",
    affordances: "all",
  });
  all.start();
  // On the wall clock it would wait a minute for its remote engineer, holding the file open.
  t.after(() => all.dispose("the test is done"));
  const sam = new RemoteAgent(all, "engineer-1");
  const envelope = sam.envelope();
  assert.deepEqual(
    envelope.affordances.map((a) => a.action),
    ["move_to", "take", "drop", "message", "repair"],
  );
  assert.ok(envelope.affordances.every((a) => a.suggestions.length === 0));
  const dests = envelope.affordances.find((a) => a.action === "move_to")!.params.dest!.choices;
  assert.ok(dests.includes("clinic") && dests.includes("workshop"), "every place, reachable or not");
  assert.ok(
    envelope.observation.tools.every((t) => t.ready),
    "readiness tells only of busy lanes",
  );
  const take = sam.send({ action: "take", args: { item: "medkit-1" } });
  assert.equal(
    all.receipt("engineer-1", take.command_id)!.outcome_reason,
    "medkit-1 is not here: you stand at valley:1,1 and it lies elsewhere.",
  );
});

test("a world whose runners cannot play it ends with no yardstick, not a crash", async () => {
  const yard = { ...yardScenario(["a-1"], 1), timeLimitMs: 5000 };
  const run = new Run({ runId: "y", scenario: yard, seed: 1, npcPolicy: "noop" });
  run.start();
  const summary = await run.whenEnded();
  assert.equal(summary.status, "failed");
  assert.equal(summary.scores.solution_sim_time_ms, null);
  assert.equal(summary.scores.time_ratio, null);
});

test("mean scores rank noop < random < greedy < solution teams on every scenario (seeds 1–10)", async () => {
  const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
  for (const { name } of listScenarios()) {
    const means: number[] = [];
    for (const policy of ["noop", "random", "greedy", "solution"] as const) {
      let total = 0;
      for (const seed of seeds) {
        const run = new Run({ runId: "r", scenario: findScenario(name)!, seed, npcPolicy: policy });
        run.start();
        const { scores } = await run.whenEnded();
        assert.ok(scores.score >= 0 && scores.score <= 1);
        assert.equal(scores.score === 1, scores.completed, `${name} ${policy}: 1 only when completed`);
        total += scores.score;
      }
      means.push(total / seeds.length);
    }
    for (let i = 1; i < means.length; i++)
      assert.ok(
        means[i]! > means[i - 1]!,
        `${name}: noop, random, greedy, solution mean ${means.join(", ")}`,
      );
  }
});

test("a completed team earns exactly its scenario's steps in credits, so partial scores share one scale", async () => {
  for (const { name } of listScenarios()) {
    const scenario = findScenario(name)!;
    for (const seed of [1, 2, 3]) {
      const run = new Run({ runId: "c", scenario, seed });
      run.start();
      const { scores } = await run.whenEnded();
      const credits = scores.agents.reduce((sum, a) => sum + a.credits, 0);
      assert.equal(credits, scenario.steps, `${scenario.name} seed ${seed}`);
    }
  }
});

/** A fresh copy of a scenario that counts the solution runners made for it. */
function countingRunners(name: string): { scenario: ScenarioDefinition; made: () => number } {
  const original = findScenario(name)!;
  let made = 0;
  const scenario: ScenarioDefinition = {
    ...original,
    solution: (agentId) => {
      made++;
      return original.solution(agentId);
    },
  };
  return { scenario, made: () => made };
}

test("a run its solution team plays is its own yardstick: the scenario is not simulated again", async () => {
  const { scenario, made } = countingRunners("bridge_repair");
  const run = new Run({ runId: "own", scenario, seed: 4 });
  run.start();
  const { scores } = await run.whenEnded();
  assert.equal(scores.solution_sim_time_ms, scores.sim_time_ms);
  assert.equal(made(), scenario.agents.length, "one runner per agent, for the run itself only");
  // The time it measured serves the next run on that seed, whoever plays it.
  const remote = new Run({ runId: "next", scenario, seed: 4, npcPolicy: "noop" });
  remote.start();
  assert.equal((await remote.whenEnded()).scores.solution_sim_time_ms, scores.sim_time_ms);
  assert.equal(made(), scenario.agents.length);
});

test("a run with other players measures the solution's time once per scenario and seed", async () => {
  const { scenario, made } = countingRunners("bridge_repair");
  const times: (number | null)[] = [];
  for (const runId of ["first", "second"]) {
    const run = new Run({ runId, scenario, seed: 9, npcPolicy: "noop" });
    run.start();
    times.push((await run.whenEnded()).scores.solution_sim_time_ms);
  }
  assert.ok(typeof times[0] === "number" && times[0] > 0);
  assert.equal(times[1], times[0]);
  assert.equal(made(), scenario.agents.length, "the yardstick run, once");
});
