import assert from "node:assert/strict";
import { test } from "node:test";
import { CommandLedger } from "../src/engine/command-ledger.js";
import { CORE_TOOLS } from "../src/engine/core-tools.js";
import { EventLog } from "../src/engine/event-log.js";
import { ManualClock, Run } from "../src/engine/index.js";
import { refusalDelayMs } from "../src/engine/simulation.js";
import { findScenario } from "../src/scenarios/index.js";
import { RemoteAgent, remoteRun, yardScenario } from "./helpers/engine-runs.js";

test("a refusal costs sim time, doubling with each one in a row up to a minute", () => {
  assert.deepEqual([1, 2, 3, 10, 11, 50].map(refusalDelayMs), [100, 200, 400, 51_200, 60_000, 60_000]);
});

test("an agent that only sends refused actions cannot freeze its run: sim time moves and the limit ends it", () => {
  // Sooner than the resupply deadline (55 s), so the run's own limit is what ends it.
  const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"], maxSimMs: 30_000 });
  const sam = new RemoteAgent(run, "engineer-1");
  const times: number[] = [];
  let commands = 0;
  while (!run.isEnded) {
    assert.ok(++commands < 100, "the run ends after a bounded number of refusals");
    times.push(sam.envelope().sim_time_ms);
    assert.equal(sam.act("take", { item: "anvil" }).outcome, "rejected");
  }
  assert.deepEqual(times.slice(0, 4), [0, 100, 300, 700]);
  assert.equal(run.status, "failed");
  assert.match(run.statusReason, /the run's sim-time limit of 30 s passed with repair, resupply unmet/);
  assert.equal(run.simTimeMs, 30_000);
  // Each refusal is one event: its decision, carrying the refusal; the engineer's only other
  // events are its first wake and the start.
  const own = run.events().filter((e) => e.data.agent === "engineer-1");
  assert.deepEqual(
    own.map((e) => e.kind),
    ["wake", ...Array(commands).fill("decision")],
  );
  assert.ok(own.slice(1).every((e) => typeof e.data.refused === "string"));
});

test("a refused action is one event: the command, why, when the agent wakes again, and the receipt", () => {
  const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"] });
  const sam = new RemoteAgent(run, "engineer-1");
  const first = sam.envelope();
  const before = run.eventCursor;
  const receipt = sam.act("take", { item: "anvil" });
  assert.equal(receipt.outcome, "rejected");
  const logged = run.events(before).filter((e) => e.data.agent === "engineer-1");
  assert.equal(logged.length, 1, JSON.stringify(logged));
  const [refusal] = logged;
  assert.equal(refusal!.kind, "decision");
  assert.equal(refusal!.sim, true);
  assert.deepEqual(refusal!.data, {
    agent: "engineer-1",
    observation_id: first.observation_id,
    action: "take",
    args: { item: "anvil" },
    refused: receipt.outcome_reason,
    wakes_at_ms: first.sim_time_ms + 100,
  });
  assert.deepEqual(refusal!.receipt, receipt);
  // The wake it announced came, unlogged, at that time, naming the refusal.
  const next = sam.envelope();
  assert.equal(next.sim_time_ms, refusal!.data.wakes_at_ms);
  assert.equal(next.reason, "refused");
  assert.equal(
    run.events(before).filter((e) => e.kind === "wake" && e.data.agent === "engineer-1").length,
    0,
  );
});

test("the receipt on a decision event is outside the log hash: other command ids, same hash", () => {
  const hashes = ["a", "b"].map((prefix) => {
    const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"] });
    for (let i = 0; i < 3; i++) {
      const envelope = run.outstanding("engineer-1")!;
      run.submit("engineer-1", {
        command_id: `${prefix}-${i}`,
        observation_id: envelope.observation_id,
        action: "take",
        args: { item: "anvil" },
      });
    }
    const receipts = run.events().flatMap((e) => (e.receipt ? [e.receipt.command_id] : []));
    assert.deepEqual(
      receipts,
      [0, 1, 2].map((i) => `${prefix}-${i}`),
    );
    return run.logHash();
  });
  assert.equal(hashes[0], hashes[1]);
});

test("a run past its wall-time limit fails with the reason, whatever its agents do", () => {
  const clock = new ManualClock();
  const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"], maxWallMs: 5_000, clock });
  assert.equal(run.status, "running");
  clock.advance(4_999);
  assert.equal(run.status, "running");
  clock.advance(1);
  assert.equal(run.status, "failed");
  assert.equal(run.statusReason, "the run's wall-time limit of 5 s passed");
  assert.equal(run.outstanding("engineer-1"), undefined);
});

test("run limits must be positive", () => {
  const scenario = findScenario("bridge_repair")!;
  for (const limits of [{ maxWallMs: 0 }, { maxSimMs: -1 }, { maxSimMs: Number.NaN }]) {
    assert.throws(() => new Run({ runId: "r", scenario, seed: 1, ...limits }), {
      code: "invalid_run_options",
    });
  }
});

test("a rejected command repeated on one observation is one verdict event", () => {
  const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"] });
  const sam = new RemoteAgent(run, "engineer-1");
  const before = run.eventCursor;
  for (let i = 0; i < 89_000; i++)
    assert.equal(sam.send({ action: "take", args: { item: 7 } }).status, "rejected");
  const verdicts = run.events(before).filter((e) => e.kind === "verdict");
  assert.equal(verdicts.length, 1);
  assert.equal(run.eventCursor, before + 1);
});

test("the event log keeps only its latest events in memory; cursors and the hash go on", () => {
  const full = new EventLog();
  const kept = new EventLog(100);
  for (let i = 0; i < 1_000; i++) {
    full.append(true, i, "tick", { i });
    kept.append(true, i, "tick", { i });
  }
  assert.equal(kept.latest, 1_000);
  const window = kept.since(0).length;
  assert.ok(window >= 75 && window <= 100, String(window));
  assert.equal(kept.oldestRetained, 1_000 - window + 1);
  assert.deepEqual(
    kept.since(0).map((e) => e.cursor),
    full.since(kept.oldestRetained - 1).map((e) => e.cursor),
  );
  assert.deepEqual(
    kept.since(995).map((e) => e.cursor),
    [996, 997, 998, 999, 1000],
  );
  assert.equal(kept.digest(), full.digest());
  const none = new EventLog(0);
  none.append(true, 0, "tick", {});
  assert.deepEqual(none.since(0), []);
  assert.equal(none.oldestRetained, 2);
});

test("a move_to with nowhere to go is not offered", () => {
  const { run } = remoteRun(yardScenario(["walker-1"], 0), { controlled: ["walker-1"] });
  const envelope = new RemoteAgent(run, "walker-1").envelope();
  assert.ok(!envelope.affordances.some((a) => a.action === "move_to"));
  assert.doesNotMatch(envelope.text, /one of \./);
  assert.doesNotMatch(envelope.text, /dest one of/);
});

test("the command ledger forgets the oldest closed observations past its limit; a late command for one is stale", () => {
  const ledger = new CommandLedger(2);
  const tools = new Map(CORE_TOOLS.map((t) => [t.spec.name, t]));
  const answer = (commandId: string, observationId: string, outstanding?: string) =>
    ledger.judge(
      "a",
      commandId,
      observationId,
      { command_id: commandId, observation_id: observationId, noop: true },
      {
        tools,
        outstanding,
        runStatus: "running",
      },
    ).receipt;
  for (let seq = 0; seq < 5; seq++) {
    ledger.issue(`a#${seq}`);
    assert.equal(answer(`c${seq}`, `a#${seq}`, `a#${seq}`).status, "accepted");
    ledger.settle({ agentId: "a", observationId: `a#${seq}`, outcome: "accepted", reason: "" });
  }
  ledger.issue("a#5");
  assert.equal(ledger.receipt("a", "c0"), undefined, "forgotten with its observation");
  assert.equal(ledger.receipt("a", "c4")?.outcome, "accepted");
  const late = answer("c0", "a#0", "a#5");
  assert.equal(late.status, "stale");
  assert.equal(late.detail, "a#0 was closed long ago; answer a#5 instead");
  assert.match(answer("c9", "a#3", "a#5").detail, /already answered by command c3/);
  assert.equal(answer("c9", "a#99", "a#5").status, "rejected");
  assert.equal(answer("c4", "a#4", "a#5").status, "duplicate");
});
