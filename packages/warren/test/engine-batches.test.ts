import assert from "node:assert/strict";
import { test } from "node:test";
import { ManualClock, Run, type ScenarioDefinition } from "../src/engine/index.js";
import { SeededRandom } from "../src/engine/random.js";
import { findScenario } from "../src/scenarios/index.js";
import { RemoteAgent, remoteRun, yardScenario } from "./helpers/engine-runs.js";

test("a slow remote agent holds its batch: sim time waits for its answer or its deadline", () => {
  const { run, clock } = remoteRun("harvest_rush", { controlled: ["farmer-1"], npcPolicy: "solution" });
  const ana = new RemoteAgent(run, "farmer-1");
  assert.equal(ana.envelope().sim_time_ms, 0);
  clock.advance(59_000);
  assert.equal(run.simTimeMs, 0);
  assert.equal(
    run.events().filter((e) => e.kind === "action_started").length,
    0,
    "no decision of the batch is applied",
  );
  ana.send({ sleep_ms: 1 });
  assert.ok(run.events().filter((e) => e.kind === "action_started").length >= 2, "the runners' moves start");
  const second = ana.envelope();
  assert.equal(second.sim_time_ms, 1);
  assert.equal(run.simTimeMs, 1);
  assert.equal(run.events().filter((e) => e.kind === "arrived").length, 0, "nobody arrives while Ana thinks");
  // Ana never answers: at the deadline a noop is recorded and the others move on.
  clock.advance(60_000);
  assert.ok(
    run.events().some((e) => e.kind === "expired" && e.data.observation_id === second.observation_id),
  );
  assert.ok(run.events().filter((e) => e.kind === "arrived").length >= 2);
});

test("commands of the same millisecond resolve in the seeded order: the batch's ids, sorted, shuffled", () => {
  const winners = new Set<string>();
  for (let seed = 1; seed <= 20; seed++) {
    const { run } = remoteRun(yardScenario(["a-1", "b-1"], 1), { seed, controlled: ["b-1", "a-1"] });
    // b answers first in wall time; the order does not depend on it.
    const bSent = new RemoteAgent(run, "b-1").act("take", { item: "pebble" });
    assert.equal(bSent.outcome, "pending", "the batch waits for a-1");
    new RemoteAgent(run, "a-1").act("take", { item: "pebble" });
    const a = run.receipt(
      "a-1",
      [...run.events()].reverse().find((e) => e.kind === "decision" && e.data.agent === "a-1")!.receipt!
        .command_id,
    )!;
    const b = run.receipt("b-1", bSent.command_id)!;
    const expected = new SeededRandom(seed).shuffled(["a-1", "b-1"])[0]!;
    const winner = a.outcome === "accepted" ? "a-1" : "b-1";
    assert.equal(winner, expected, `seed ${seed}`);
    assert.equal([a, b].filter((r) => r.outcome === "accepted").length, 1);
    const loser = winner === "a-1" ? b : a;
    assert.match(loser.outcome_reason, new RegExp(`pebble is not here: ${winner} carries it`));
    winners.add(winner);
  }
  assert.equal(winners.size, 2, "over twenty seeds each agent wins sometimes");
});

test("deadlines met: three farmers sell the first crate and the harvest in time", async () => {
  const run = new Run({ runId: "h", scenario: findScenario("harvest_rush")!, seed: 11 });
  run.start();
  const summary = await run.whenEnded();
  assert.equal(summary.status, "completed");
  for (const objective of summary.objectives) {
    const done = run
      .events()
      .find((e) => e.kind === "objective" && e.data.id === objective.id && e.data.status === "completed");
    assert.ok(done && done.sim_time_ms <= objective.deadline_ms!, `${objective.id} before its deadline`);
  }
});

test("deadlines missed: two farmers make the first crate but not the harvest; nobody makes neither", async () => {
  const scenario = findScenario("harvest_rush")!;
  for (const seed of [1, 2, 3]) {
    const { run } = remoteRun(scenario, { seed, controlled: [], npcPolicy: "none" });
    const summary = await run.whenEnded();
    assert.equal(summary.status, "failed");
    assert.equal(summary.status_reason, "objective first_crate missed its deadline at t=20s");
    assert.equal(summary.sim_time_ms, 20_000);
    const solo = new Run({
      runId: "s",
      scenario,
      seed,
      controlledAgents: ["farmer-3"],
      clock: new ManualClock(),
    });
    solo.onObservation((e) =>
      solo.submit(e.agent_id, {
        command_id: `n-${e.observation_id}`,
        observation_id: e.observation_id,
        noop: true,
      }),
    );
    solo.start();
    const alone = await solo.whenEnded();
    assert.equal(alone.status, "failed");
    assert.equal(alone.status_reason, "objective harvest missed its deadline at t=36s");
    const byId = Object.fromEntries(alone.objectives.map((o) => [o.id, o]));
    assert.equal(byId.first_crate!.status, "completed");
    assert.equal(byId.harvest!.status, "failed");
    assert.ok(byId.harvest!.progress.current < 9);
  }
});

test("pace: a number runs that many sim ms per wall ms; null runs as fast as answered", async () => {
  const scenario = findScenario("harvest_rush")!;
  const loose = new Run({ runId: "p3", scenario, seed: 1, pace: null, clock: new ManualClock() });
  loose.start();
  const summary = await loose.whenEnded();
  assert.equal(summary.status, "completed", "pace null: done with no wall time passing at all");
  const firstStep = loose.events().find((e) => e.sim && e.sim_time_ms > 0)!.sim_time_ms;
  const clock = new ManualClock();
  const paced = new Run({ runId: "p", scenario, seed: 1, pace: 1, clock });
  paced.start();
  assert.equal(paced.simTimeMs, 0);
  clock.advance(firstStep - 1);
  assert.equal(paced.simTimeMs, 0, "one wall ms short of the next event");
  clock.advance(1);
  assert.equal(paced.simTimeMs, firstStep);
  const fastClock = new ManualClock();
  const fast = new Run({ runId: "p2", scenario, seed: 1, pace: 10, clock: fastClock });
  fast.start();
  fastClock.advance(firstStep / 10 - 1);
  assert.equal(fast.simTimeMs, 0);
  fastClock.advance(1);
  assert.equal(fast.simTimeMs, firstStep, "pace 10: a tenth of the wall time");
  fastClock.advance(1_000_000);
  const fastSummary = await fast.whenEnded();
  assert.equal(fastSummary.log_hash, summary.log_hash, "pace changes timing, never the run");
  paced.dispose();
});

test("a run whose task dies is crashed, never a stale running", async () => {
  const base = findScenario("signal_relay")!;
  const broken: ScenarioDefinition = {
    ...base,
    solution: () => ({
      decide(o) {
        if (o.time > 0) throw new Error("the runner fell over");
        return { kind: "sleep", sleep_ms: 5 };
      },
    }),
  };
  const run = new Run({ runId: "c", scenario: broken, seed: 1 });
  let ended = "";
  run.onEnd((s) => {
    ended = s.status;
  });
  run.start();
  const summary = await run.whenEnded();
  assert.equal(summary.status, "crashed");
  assert.equal(summary.status_reason, "the runner fell over");
  assert.equal(ended, "crashed");
  assert.deepEqual(run.events().at(-1)?.data, { status: "crashed", reason: "the runner fell over" });
  const invalid: ScenarioDefinition = {
    ...base,
    solution: () => ({ decide: () => ({ kind: "action", action: "move_to", args: { dest: 7 } }) }),
  };
  const bad = new Run({ runId: "c2", scenario: invalid, seed: 1 });
  bad.start();
  const badSummary = await bad.whenEnded();
  assert.equal(badSummary.status, "crashed");
  assert.match(badSummary.status_reason, /args\.dest must be a string/);
});

test("the event log: cursors from 1, since, listeners, and the observation and end notifications", async () => {
  const clock = new ManualClock();
  const run = new Run({
    runId: "e",
    scenario: findScenario("signal_relay")!,
    seed: 2,
    controlledAgents: ["runner-1"],
    clock,
  });
  const seen: number[] = [];
  run.onEvent((e) => seen.push(e.cursor));
  const envelopes: string[] = [];
  run.onObservation((e) => envelopes.push(e.observation_id));
  const waiting = run.nextObservation("runner-1", -1, 10_000);
  run.start();
  const first = await waiting;
  assert.equal(first?.observation_id, "runner-1#0");
  assert.deepEqual(envelopes, ["runner-1#0"]);
  const all = run.events();
  assert.deepEqual(
    all.map((e) => e.cursor),
    all.map((_, i) => i + 1),
  );
  assert.deepEqual(
    seen,
    all.map((e) => e.cursor),
  );
  assert.deepEqual(
    run.events(3).map((e) => e.cursor),
    all.slice(3).map((e) => e.cursor),
  );
  assert.deepEqual(
    run.events(2, 2).map((e) => e.cursor),
    [3, 4],
  );
  assert.deepEqual(run.events(all.length), []);
  assert.equal(run.summary().event_cursor, all.length);
  assert.equal((await run.nextObservation("runner-1", -1, 0))?.observation_id, "runner-1#0", "redelivered");
  // At-least-once: the outstanding observation comes back whatever `after` says.
  assert.equal((await run.nextObservation("runner-1", 0, 0))?.observation_id, "runner-1#0");
  run.submit("runner-1", {
    command_id: "go",
    observation_id: "runner-1#0",
    action: "move_to",
    args: { dest: "gate" },
  });
  const arrived = await run.nextObservation("runner-1", 0, 25_000);
  assert.equal(arrived?.seq, 1);
  assert.equal(arrived?.reason, "arrived", "the runner wakes at the gate");
  run.dispose();
  assert.equal(await run.nextObservation("runner-1", 0, 25_000), undefined, "nothing once the run ended");
  assert.equal(run.status, "crashed");
});

test("a long poll wakes for its own agent's next envelope, never for another agent's", async () => {
  const { run } = remoteRun(yardScenario(["a-1", "b-1"], 1), { controlled: ["a-1", "b-1"] });
  const a = new RemoteAgent(run, "a-1");
  const b = new RemoteAgent(run, "b-1");
  const aFirst = a.envelope().seq;
  const bFirst = b.envelope().seq;
  a.send({ sleep_ms: 1000 });
  b.send({ sleep_ms: 5000 });
  // Nothing outstanding for either: both wait, on the manual clock, for their next envelope.
  const aWaits = run.nextObservation("a-1", aFirst, 60_000);
  const bWaits = run.awaitObservation("b-1", bFirst, 60_000);
  let bWoke = false;
  void bWaits.envelope.then(() => (bWoke = true));
  // Both slept: the batch resolves at once and a-1 wakes at 1 s, b-1 not before 5 s.
  const woken = await aWaits;
  assert.equal(woken?.agent_id, "a-1");
  assert.equal(woken?.sim_time_ms, 1000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(bWoke, false, "a-1's envelope does not answer b-1's poll");
  a.send({ sleep_ms: 10_000 });
  const bNext = await bWaits.envelope;
  assert.equal(bNext?.agent_id, "b-1");
  assert.equal(bNext?.sim_time_ms, 5000);
  run.dispose();
});
