import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cellName } from "../src/engine/grid.js";
import type { RunEvent } from "../src/engine/index.js";
import { Run } from "../src/engine/run.js";
import { findScenario } from "../src/scenarios/index.js";
import { RunModel } from "../src/web/page/run-model.js";
import { recordRun, replayRecord } from "../src/web/run-record.js";
import { buildScene } from "../src/web/scene.js";
import type { RunRecord } from "../src/web/viewer-documents.js";
import { worldState } from "../src/web/world-state.js";
import { remoteRun } from "./helpers/engine-runs.js";

/** A run with every agent on its runner, recorded as it ran, once it has ended. */
async function solvedRun(name: string, seed: number): Promise<{ run: Run; record: RunRecord }> {
  const run = new Run({ runId: "r", scenario: findScenario(name)!, seed, npcPolicy: "solution", pace: null });
  const record = recordRun(run);
  run.start();
  await run.whenEnded();
  return { run, record };
}

describe("the viewer's run model", () => {
  for (const name of ["bridge_repair", "signal_relay", "harvest_rush"]) {
    it(`ends a solved ${name} run where the engine does: agents, items, place features, objectives, status`, async () => {
      const { run, record } = await solvedRun(name, 3);
      const scene = buildScene(run.id, run.scenario, run.seed, run.agents());
      const model = new RunModel(scene, { changes: record.changes });
      for (const event of run.events(0)) assert.ok(model.apply(event));
      const summary = run.summary();
      assert.equal(model.status, "completed");
      assert.equal(model.cursor, summary.event_cursor);
      assert.equal(model.gaps, 0);
      assert.equal(model.simTime, summary.sim_time_ms);
      for (const o of summary.objectives) {
        const seen = model.objectives.get(o.id)!;
        assert.deepEqual([seen.status, seen.progress], [o.status, o.progress]);
      }
      for (const [id, truth] of run.world.agents) {
        const agent = model.agents.get(id)!;
        assert.equal(agent.cell, cellName(truth.cell), `${id}'s cell`);
        assert.deepEqual([...agent.inventory].sort(), [...truth.inventory].sort(), `${id} carries`);
      }
      const truth = worldState(run.world, run.scenario);
      for (const [id, location] of Object.entries(truth.items)) {
        assert.deepEqual(model.items.get(id)!.location, location, `${id}'s place`);
      }
      for (const [id, features] of Object.entries(truth.features)) {
        assert.deepEqual(model.places.get(id)!.features, features, `${id}'s features`);
      }
    });
  }

  it("counts a repeated event as a duplicate and a skipped cursor as a gap, applying neither twice", async () => {
    const { run } = await solvedRun("harvest_rush", 1);
    const events = run.events(0);
    const model = new RunModel(buildScene(run.id, run.scenario, run.seed, run.agents()));
    for (const event of events.slice(0, 10)) model.apply(event);
    assert.equal(model.apply(events[9]!), false);
    assert.equal(model.apply(events[4]!), false);
    assert.equal(model.duplicates, 2);
    assert.equal(model.gaps, 0);
    model.apply(events[11]!);
    assert.equal(model.gaps, 1, "event 11 skipped");
    assert.equal(model.cursor, 12);
  });

  it("keeps the latest events only, dropping a tenth at a time past its limit, and says from which cursor", async () => {
    const { run } = await solvedRun("bridge_repair", 3);
    const model = new RunModel(buildScene(run.id, run.scenario, run.seed, run.agents()), { keepEvents: 50 });
    for (const event of run.events(0).slice(0, 55)) model.apply(event);
    assert.equal(model.events.length, 55, "up to a tenth over the limit stays");
    model.apply(run.events(55, 1)[0]!);
    assert.equal(model.events.length, 50);
    assert.equal(model.firstKept, 7);
    assert.equal(model.events[0]!.cursor, 7);
    assert.equal(model.cursor, 56);
  });

  it("moves an agent smoothly between cells during a durative move, and opens the bridge's wall", async () => {
    const { run } = await solvedRun("bridge_repair", 3);
    const events = run.events(0);
    const model = new RunModel(buildScene(run.id, run.scenario, run.seed, run.agents()));
    const start = events.findIndex(
      (e) =>
        e.kind === "action_started" &&
        e.data.action === "move_to" &&
        Number(e.data.until_ms) - e.sim_time_ms >= 2000,
    );
    for (const event of events.slice(0, start + 1)) model.apply(event);
    const moving = events[start]!;
    const agent = model.agents.get(String(moving.data.agent))!;
    assert.equal(agent.lanes.get("body")?.action, "move_to");
    const from = model.position(agent, moving.sim_time_ms)!;
    const middle = model.position(agent, (moving.sim_time_ms + Number(moving.data.until_ms)) / 2)!;
    const end = model.position(agent, Number(moving.data.until_ms));
    assert.equal(`${from.space}:${from.x},${from.y}`, moving.data.cell);
    assert.ok(
      !Number.isInteger(middle.x) ||
        !Number.isInteger(middle.y) ||
        middle.x !== from.x ||
        middle.y !== from.y,
    );
    assert.notDeepEqual(end, from);
    const opened = events.find((e) => e.kind === "bridge_opened")!;
    const cell = model.eventCell(opened)!;
    const valley = model.spaces.get("valley")!;
    assert.equal(valley.blocked[cell.y * valley.width + cell.x], 1, "the river blocks the span at first");
    for (const event of events.slice(start + 1)) model.apply(event);
    assert.equal(valley.blocked[cell.y * valley.width + cell.x], 0, "the repaired bridge is open");
  });

  it("shows a remote agent's receipt and the outcome of its refused command", () => {
    const { run } = remoteRun("bridge_repair", { controlled: ["engineer-1"] });
    const model = new RunModel(buildScene(run.id, run.scenario, run.seed, run.agents()));
    const envelope = run.outstanding("engineer-1")!;
    run.submit("engineer-1", {
      command_id: "c-1",
      observation_id: envelope.observation_id,
      action: "repair",
      args: {},
    });
    for (const event of run.events(0)) model.apply(event as RunEvent);
    const agent = model.agents.get("engineer-1")!;
    assert.equal(agent.receipt?.status, "accepted");
    assert.equal(agent.command?.text, "repair");
    assert.equal(agent.command?.outcome, "rejected");
    assert.match(agent.command?.reason ?? "", /stand at the bridge/);
    run.dispose();
  });
});

describe("a run's record", () => {
  it("replayed from an ended run's events, equals the record made as it ran, world changes at the run's own cursors", async () => {
    // A remote agent's verdicts are events the replay does not have: its cursors differ from the run's.
    const { run } = remoteRun("bridge_repair", {
      controlled: ["engineer-1"],
      npcPolicy: "solution",
      seed: 3,
    });
    const record = recordRun(run);
    const envelope = run.outstanding("engineer-1")!;
    const bogus = { command_id: "c-x", observation_id: "nope", noop: true };
    assert.equal(run.submit("engineer-1", bogus).status, "rejected");
    run.submit("engineer-1", { command_id: "c-1", observation_id: envelope.observation_id, noop: true });
    run.dispose("enough");
    const replayed = await replayRecord(run.scenario, run.seed, run.events(0));
    assert.ok(record.changes.length > 0 || Object.keys(record.texts).length > 0);
    assert.deepEqual(replayed.texts, record.texts);
    const simCursors = new Set(
      run
        .events(0)
        .filter((e) => e.sim)
        .map((e) => e.cursor),
    );
    assert.ok(replayed.changes.every((c) => simCursors.has(c.cursor)));
  });

  it("notes a plank worked into the bridge, which no event says, at the cursor it happened", async () => {
    const { run, record } = await solvedRun("bridge_repair", 3);
    const replayed = await replayRecord(run.scenario, run.seed, run.events(0));
    assert.deepEqual(replayed, record);
    // The plank is used up as the repair begins, before its decision is logged: the change is at the decision.
    const repairs = run.events(0).filter((e) => e.kind === "decision" && e.data.action === "repair");
    assert.equal(repairs.length, 2);
    for (const repair of repairs) {
      const change = record.changes.find((c) => c.cursor === repair.cursor)!;
      assert.ok(change, `a change at the repair #${repair.cursor}`);
      assert.deepEqual(Object.values(change.items ?? {}), [{ at: "gone" }]);
    }
  });
});

describe("a run's scene", () => {
  it("is the world before the first event: walls, places, items and agents where they start", () => {
    const scenario = findScenario("bridge_repair")!;
    const run = new Run({ runId: "r", scenario, seed: 5, npcPolicy: "solution", pace: null });
    const scene = buildScene("r", scenario, 5, run.agents());
    assert.equal(scene.format, "warren-scene/1");
    const valley = scene.spaces.find((s) => s.id === "valley")!;
    assert.equal(valley.rows.length, valley.height);
    assert.ok(
      valley.rows.every((row) => row.length === valley.width && row[6] === "#"),
      "the river",
    );
    assert.deepEqual(
      scene.agents.map((a) => [a.id, a.controller]),
      run.agents().map((a) => [a.agent_id, a.controller]),
    );
    const workshop = scene.places.find((p) => p.id === "workshop")!;
    assert.equal(scene.agents.find((a) => a.id === "engineer-1")!.cell, workshop.cell);
    assert.deepEqual(scene.tools.move_to, { lane: "body", durative: true });
    assert.equal(cellName({ space: "valley", x: 1, y: 1 }), workshop.cell);
    // The same scenario and seed always give the same scene.
    assert.deepEqual(buildScene("r", scenario, 5, run.agents()), scene);
  });
});
