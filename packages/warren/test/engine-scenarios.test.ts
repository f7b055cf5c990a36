import assert from "node:assert/strict";
import { test } from "node:test";
import { decisionsFromEvents, Run } from "../src/engine/index.js";
import { findScenario, listScenarios } from "../src/scenarios/index.js";
import { headless, playRemotely } from "./helpers/engine-runs.js";

const SCENARIO_NAMES = listScenarios().map((s) => s.name);

test("there are at least three scenarios, bridge_repair among them", () => {
  assert.ok(SCENARIO_NAMES.length >= 3);
  assert.ok(SCENARIO_NAMES.includes("bridge_repair"));
});

for (const name of SCENARIO_NAMES) {
  test(`${name}: the solution runners complete it from every seed 1–20`, async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const summary = await headless(name, seed);
      assert.equal(summary.status, "completed", `seed ${seed}: ${summary.status_reason}`);
      assert.ok(summary.objectives.every((o) => o.status === "completed"));
      assert.ok(summary.objectives.every((o) => o.progress.current === o.progress.target));
    }
  });

  test(`${name}: the same seed gives the same log hash, other seeds other hashes`, async () => {
    const first = await headless(name, 7);
    const again = await headless(name, 7);
    assert.equal(again.log_hash, first.log_hash);
    assert.match(first.log_hash, /^sha256:[0-9a-f]{64}$/);
    const others = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) others.add((await headless(name, seed)).log_hash);
    assert.ok(!others.has(first.log_hash), "seed 7's hash differs from seeds 1–6");
    assert.ok(others.size >= 2, "different seeds give different runs");
  });

  test(`${name}: replaying a run's recorded decisions reproduces its hash`, async () => {
    const scenario = findScenario(name)!;
    const original = new Run({ runId: "a", scenario, seed: 5 });
    original.start();
    const summary = await original.whenEnded();
    const replayed = new Run({
      runId: "b",
      scenario,
      seed: 5,
      replay: decisionsFromEvents(original.events()),
    });
    replayed.start();
    const again = await replayed.whenEnded();
    assert.equal(again.log_hash, summary.log_hash);
    assert.equal(again.status, summary.status);
  });

  test(`${name}: remote agents answering like the runners give the very same run`, async () => {
    const scenario = findScenario(name)!;
    const ids = scenario.agents.map((a) => a.id);
    const remote = ids.filter((_, i) => i % 2 === 0);
    const run = new Run({ runId: "r", scenario, seed: 3, controlledAgents: remote, npcPolicy: "solution" });
    const runners = new Map(remote.map((id) => [id, scenario.solution(id)]));
    playRemotely(run, remote, (envelope) => runners.get(envelope.agent_id)!.decide(envelope.observation));
    run.start();
    const summary = await run.whenEnded();
    assert.equal(summary.status, "completed");
    assert.equal(summary.log_hash, (await headless(name, 3)).log_hash);
  });

  test(`${name}: beside any mix of no-op remote agents, the runners finish exactly when the needed roles are theirs`, async () => {
    const scenario = findScenario(name)!;
    const ids = scenario.agents.map((a) => a.id);
    for (let mask = 0; mask < 1 << ids.length; mask++) {
      const onSolution = ids.filter((_, i) => mask & (1 << i));
      const remote = ids.filter((id) => !onSolution.includes(id));
      const solvable = scenario.solvableWith(new Set(onSolution));
      for (const seed of [1, 2, 3, 4]) {
        const run = new Run({ runId: "m", scenario, seed, controlledAgents: remote, npcPolicy: "solution" });
        playRemotely(run, remote, () => ({ kind: "noop" }));
        run.start();
        const summary = await run.whenEnded();
        assert.equal(
          summary.status,
          solvable ? "completed" : "failed",
          `${name} seed ${seed}, runners for [${onSolution.join(", ")}]: ${summary.status_reason}`,
        );
      }
    }
  });
}

for (const name of SCENARIO_NAMES) {
  test(`${name}: every role is needed: without any one agent the others cannot finish`, () => {
    const scenario = findScenario(name)!;
    const ids = scenario.agents.map((a) => a.id);
    assert.equal(scenario.solvableWith(new Set(ids)), true);
    for (const missing of ids) {
      assert.equal(scenario.solvableWith(new Set(ids.filter((id) => id !== missing))), false, missing);
    }
  });
}

test("signal_relay cannot be finished without messages both ways: the plate out, the code back", async () => {
  const scenario = findScenario("signal_relay")!;
  for (const seed of [1, 2, 3]) {
    const run = new Run({ runId: "s", scenario, seed });
    run.start();
    const summary = await run.whenEnded();
    assert.equal(summary.status, "completed");
    const messages = run.events().filter((e) => e.kind === "message");
    assert.deepEqual(
      messages.map((m) => m.data.from),
      ["runner-1", "keeper-1"],
    );
    assert.match(String(messages[1]!.data.text), /\d{4}/);
    const credits = run
      .events()
      .filter((e) => e.kind === "credit")
      .map((e) => e.data.agent);
    assert.deepEqual(
      credits,
      ["runner-1", "runner-1", "keeper-1"],
      "the runner reaching the plate, then each message that mattered, is credited",
    );
  }
  // The runner alone, with no one to tell it the code, never opens the gate.
  const alone = new Run({ runId: "s", scenario, seed: 1, controlledAgents: ["keeper-1"] });
  playRemotely(alone, ["keeper-1"], () => ({ kind: "noop" }));
  alone.start();
  const summary = await alone.whenEnded();
  assert.equal(summary.status, "failed");
  assert.match(summary.status_reason, /open_gate missed its deadline/);
});
