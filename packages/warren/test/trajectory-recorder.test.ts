// Runs recorded in process: the recording changes nothing, a remote agent's steps say what its
// client sent, and every recorded run replays to its hash.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Ajv } from "ajv";
import { decisionFields, ManualClock, type NpcPolicies, Run, type RunSummary } from "../src/engine/index.js";
import type { TrajectoryStep } from "../src/protocol/index.js";
import { findScenario, listScenarios } from "../src/scenarios/index.js";
import type { Trajectory } from "../src/trajectory/trajectory-reader.js";
import { TrajectoryRecorder } from "../src/trajectory/trajectory-recorder.js";
import { replayTrajectory } from "../src/trajectory/trajectory-replay.js";

// The published file, as a reader without warren would load it.
const validLine = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(new URL("../docs/trajectory.schema.json", import.meta.url), "utf8")),
);

function assertValidLine(line: unknown): void {
  assert.ok(validLine(line), JSON.stringify(validLine.errors));
}

/** Plays the run to its end, recording it; its trajectory as a file would hold it. */
async function recorded(
  run: Run,
  play: () => void = () => {},
): Promise<Trajectory & { summary: RunSummary }> {
  const steps: TrajectoryStep[] = [];
  const recorder = new TrajectoryRecorder(run, (step) => steps.push(JSON.parse(JSON.stringify(step))));
  run.start();
  play();
  const summary = await run.whenEnded();
  return { header: JSON.parse(JSON.stringify(recorder.header(summary))), steps, summary };
}

async function hashOf(run: Run): Promise<string> {
  run.start();
  return (await run.whenEnded()).log_hash;
}

for (const { name, agents } of listScenarios()) {
  test(`${name}: a recorded run hashes as an unrecorded one, has a step per decision, and replays to its hash`, async () => {
    const scenario = findScenario(name)!;
    const policies: NpcPolicies[] = ["solution", { [agents[0]!.agent_id]: "random" }, "greedy"];
    for (const npcPolicy of policies) {
      for (const seed of [1, 2]) {
        const options = { runId: "r", scenario, seed, trial: 1, npcPolicy };
        const trajectory = await recorded(new Run(options));
        const unrecorded = new Run(options);
        const hash = await hashOf(unrecorded);
        assert.equal(trajectory.summary.log_hash, hash, "recording changes nothing");
        assert.equal(trajectory.header.result.log_hash, hash);
        const logged = unrecorded.events(0).filter((e) => e.kind === "decision");
        assert.equal(trajectory.steps.length, logged.length, "a step per decision event");
        assert.equal(trajectory.header.result.steps, logged.length);
        assertValidLine(trajectory.header);
        for (const step of trajectory.steps) assertValidLine(step);
        const replay = await replayTrajectory(trajectory);
        assert.equal(replay.divergence, undefined, JSON.stringify(replay.divergence));
        assert.equal(replay.summary.log_hash, hash);
      }
    }
  });
}

test("a remote agent's steps carry its receipts, the commands refused before them, and the noops of its deadlines", async () => {
  const scenario = findScenario("bridge_repair")!;
  const clock = new ManualClock();
  const run = new Run({
    runId: "r",
    scenario,
    seed: 3,
    controlledAgents: ["engineer-1"],
    decisionTimeoutMs: 1000,
    clock,
  });
  const runner = scenario.solution("engineer-1");
  let sent = 0;
  const send = (body: Record<string, unknown>) =>
    run.submit("engineer-1", {
      command_id: `c-${++sent}`,
      observation_id: run.outstanding("engineer-1")!.observation_id,
      ...body,
    });
  const trajectory = await recorded(run, () => {
    assert.equal(send({ action: "fly" }).status, "rejected");
    assert.equal(send({ action: "take", args: { item: "toolbox-1" } }).status, "accepted");
    clock.advance(1000); // the engineer's second observation expires
    for (let i = 0; i < 10_000 && !run.isEnded; i++) {
      const envelope = run.outstanding("engineer-1");
      if (envelope) send(decisionFields(runner.decide(envelope.observation)));
      else clock.advance(1000);
    }
  });
  const engineer = trajectory.steps.filter((s) => s.agent === "engineer-1");
  const [first, second] = engineer;
  assert.deepEqual(first!.command, { action: "take", args: { item: "toolbox-1" } });
  assert.equal(first!.receipt?.command_id, "c-2");
  assert.equal(first!.receipt?.outcome, "accepted");
  assert.deepEqual(
    first!.verdicts.map((v) => [v.command_id, v.status]),
    [["c-1", "rejected"]],
  );
  assert.match(first!.verdicts[0]!.detail, /"fly" is not one of your tools/);
  assert.match(first!.observation.text, /^\[t=0s\] You are Sam the engineer/);
  assert.ok(first!.observation.affordances.length > 0, "a remote agent's affordances are its envelope's");
  assert.deepEqual([second!.command, second!.expired, second!.receipt], [{ noop: true }, true, null]);
  assert.deepEqual(
    engineer.map((s) => s.step),
    engineer.map((_, i) => i),
    "an agent's steps count its decisions",
  );
  assert.deepEqual(trajectory.header.controlled_agents, ["engineer-1"]);
  assert.equal(trajectory.header.agents.find((a) => a.agent_id === "engineer-1")?.controller, "remote");
  for (const step of trajectory.steps) assertValidLine(step);
  const replay = await replayTrajectory(trajectory);
  assert.equal(replay.divergence, undefined, JSON.stringify(replay.divergence));
  assert.equal(replay.summary.log_hash, trajectory.summary.log_hash);
});

test("a trajectory whose last steps are missing replays to a crash, said at its end", async () => {
  const { header, steps } = await recorded(
    new Run({ runId: "r", scenario: findScenario("signal_relay")!, seed: 2 }),
  );
  const replay = await replayTrajectory({ header, steps: steps.slice(0, -1) });
  assert.equal(replay.summary.status, "crashed");
  assert.equal(replay.divergence?.line, 1);
  assert.match(
    replay.divergence!.differences[0]!,
    /^the run ended crashed \(.*has no decision for .*\), not completed$/,
  );
});
