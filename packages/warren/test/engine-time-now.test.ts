import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../src/engine/clock.js";
import { Run } from "../src/engine/run.js";
import { findScenario } from "../src/scenarios/index.js";

describe("a run's time as it stands (timeNow)", () => {
  it("moves on with wall time at the pace between events, never past the next one, and stands still while an agent is awaited", () => {
    const clock = new ManualClock();
    const run = new Run({
      runId: "r",
      scenario: findScenario("signal_relay")!,
      seed: 3,
      pace: 2,
      clock,
      controlledAgents: ["runner-1"],
    });
    run.start();
    // At t=0 the remote runner has not answered: the run waits, its time stands.
    assert.deepEqual(run.timeNow(), { sim_time_ms: 0, until_ms: null, waiting_for: ["runner-1"] });
    clock.advance(5000);
    assert.equal(run.timeNow().sim_time_ms, 0);
    const first = run.outstanding("runner-1")!;
    run.submit("runner-1", { command_id: "c-1", observation_id: first.observation_id, sleep_ms: 10_000 });
    const paced = run.timeNow();
    assert.deepEqual(paced.waiting_for, []);
    assert.ok(paced.until_ms !== null && paced.until_ms > run.simTimeMs, JSON.stringify(paced));
    const until = paced.until_ms!;
    const from = run.simTimeMs;
    // Half-way in wall time, half-way in sim time (pace 2: two sim ms a wall ms).
    const wallToNext = (until - from) / 2;
    clock.advance(Math.floor(wallToNext / 2));
    assert.equal(run.timeNow().sim_time_ms, from + 2 * Math.floor(wallToNext / 2));
    assert.ok(run.timeNow().sim_time_ms <= until);
    run.dispose("the test is done");
    assert.equal(run.timeNow().until_ms, null, "an ended run's time stands");
  });
});
