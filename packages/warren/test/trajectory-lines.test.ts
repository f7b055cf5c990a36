// A trajectory's lines built from hand-made parts, read back, and compared, with no run played.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope, EventOf, Observation, Receipt, RunScores, RunSummary } from "../src/engine/index.js";
import { TRAJECTORY_FORMAT, type TrajectoryStep, trajectorySchemaDocument } from "../src/protocol/index.js";
import { trajectoryFileName } from "../src/sweep/sweep-trajectories.js";
import { stepDifferences } from "../src/trajectory/step-differences.js";
import { TrajectoryError } from "../src/trajectory/trajectory-error.js";
import { TrajectoryFile } from "../src/trajectory/trajectory-file.js";
import {
  headerLine,
  type StepVerdict,
  stepLine,
  type TrajectoryRun,
} from "../src/trajectory/trajectory-lines.js";
import { parseTrajectory } from "../src/trajectory/trajectory-reader.js";

const observation: Observation = {
  agent: "engineer-1",
  time: 4000,
  reason: "arrived",
  busy: [],
  you: {
    id: "engineer-1",
    name: "Sam",
    role: "engineer",
    cell: "valley:5,4",
    place: "bridge",
    inventory: [],
    budgets_left: { messages: 12, inventory: 20 },
  },
  place: {
    id: "bridge",
    name: "the bridge",
    cell: "valley:5,4",
    description: "",
    items: [],
    agents: [],
    features: {},
  },
  nearby: { agents: [], items: [], places: [] },
  messages: [],
  outcomes: [],
  objectives: [],
  tools: [],
};

const envelope: Envelope = {
  run_id: "run-1",
  agent_id: "engineer-1",
  observation_id: "engineer-1#3",
  seq: 3,
  sim_time_ms: 4000,
  reason: "arrived",
  deadline_unix: 1,
  briefing_revision: 1,
  observation,
  text: "[t=4s] You are Sam …",
  affordances: [{ action: "repair", params: {}, suggestions: [{}] }],
};

const scores: RunScores = {
  completed: false,
  score: 0.5,
  objectives_met: 0,
  objectives_total: 1,
  sim_time_ms: 4000,
  solution_sim_time_ms: null,
  time_ratio: null,
  agents: [],
};

const receipt: Receipt = {
  command_id: "c-9",
  observation_id: "engineer-1#3",
  status: "accepted",
  detail: "",
  outcome: "rejected",
  outcome_reason: "The span is whole.",
};

/** A refused action's decision event, with its receipt. */
const refusedDecision = {
  cursor: 41,
  sim: true,
  sim_time_ms: 4000,
  kind: "decision",
  data: {
    agent: "engineer-1",
    observation_id: "engineer-1#3",
    action: "repair",
    args: {},
    refused: "The span is whole.",
    wakes_at_ms: 4100,
  },
  receipt,
} as EventOf<"decision">;

/** The refused decision's step, after the verdicts given. */
const refusedStep = (verdicts: StepVerdict[] = []): TrajectoryStep =>
  stepLine(
    envelope,
    refusedDecision,
    {
      agentId: "engineer-1",
      observationId: "engineer-1#3",
      outcome: "rejected",
      reason: "The span is whole.",
    },
    verdicts,
    { scores, log_hash: "sha256:aa" },
  );

const stepOf = (overrides: Partial<TrajectoryStep> = {}): TrajectoryStep => ({
  ...refusedStep(),
  ...overrides,
});

test("a step holds what the agent saw, its command alone, the verdicts before it, how it resolved and the scores so far", () => {
  const verdict = {
    command_id: "c-8",
    observation_id: "engineer-1#3",
    status: "rejected" as const,
    detail: "args.x is not allowed",
  };
  assert.deepEqual(refusedStep([verdict]), {
    type: "step",
    agent: "engineer-1",
    step: 3,
    observation_id: "engineer-1#3",
    sim_time_ms: 4000,
    reason: "arrived",
    observation: { text: envelope.text, structured: observation, affordances: envelope.affordances },
    command: { action: "repair", args: {} },
    expired: false,
    receipt,
    verdicts: [verdict],
    outcome: { status: "rejected", reason: "The span is whole." },
    scores,
    log_hash: "sha256:aa",
    event_cursor: 41,
  });

  const expired = stepLine(
    envelope,
    {
      ...refusedDecision,
      data: { agent: "engineer-1", observation_id: "engineer-1#3", noop: true, expired: true },
      receipt: undefined,
    } as EventOf<"decision">,
    { agentId: "engineer-1", observationId: "engineer-1#3", outcome: "accepted", reason: "" },
    [],
    { scores, log_hash: "sha256:ab" },
  );
  assert.deepEqual(expired.command, { noop: true });
  assert.equal(expired.expired, true, "the engine's own noop says so");
  assert.equal(expired.receipt, null, "no command answered it");
});

/** A run as a header names it, and its end. */
const bridgeRun: TrajectoryRun = {
  scenario: "bridge_repair",
  seed: 3,
  trial: 1,
  affordances: "ready",
  npc_policy: { "courier-1": "random" },
  controlled_agents: ["engineer-1"],
  warren_version: "9.9.9",
  briefing_revision: 1,
  agents: [],
};
const end = {
  status: "failed",
  status_reason: "time",
  objectives: [],
  sim_time_ms: 120_000,
  log_hash: "sha256:ff",
  scores,
};
const ended = end as unknown as RunSummary;

test("the header says the run, who played whom, and the final result; a sweep's run its key", () => {
  const header = headerLine(bridgeRun, ended, { sim_events: 210, steps: 30 });
  assert.deepEqual(header, {
    type: "header",
    format: TRAJECTORY_FORMAT,
    ...bridgeRun,
    protocol: "warren-agent/0",
    result: { ...end, sim_events: 210, steps: 30 },
  });
  assert.equal("sweep" in header, false, "a run outside a sweep has no sweep");
  const swept = headerLine({ ...bridgeRun, sweep: { key: "bridge_repair/m/3#1", mix: "m" } }, ended, {
    sim_events: 0,
    steps: 0,
  });
  assert.deepEqual(swept.sweep, { key: "bridge_repair/m/3#1", mix: "m" });
});

test("a replayed step is compared by what the agent saw, how the world answered and the log hash", () => {
  assert.deepEqual(stepDifferences(stepOf(), stepOf()), []);
  const elsewhere = stepOf({
    observation: {
      ...stepOf().observation,
      structured: { ...observation, you: { ...observation.you, cell: "valley:4,4" } },
    },
    log_hash: "sha256:bb",
  });
  const [seen, hash] = stepDifferences(stepOf(), elsewhere);
  assert.equal(
    seen,
    'what the agent saw differs: observation.structured.you.cell: recorded "valley:5,4", replayed "valley:4,4"',
  );
  assert.match(hash!, /^the log hash differs \(recorded sha256:aa, replayed sha256:bb\)$/);
  assert.deepEqual(stepDifferences(stepOf(), stepOf({ outcome: { status: "accepted", reason: "" } })), [
    "the world answered otherwise: recorded rejected (The span is whole.), replayed accepted",
  ]);
  assert.deepEqual(stepDifferences(stepOf(), stepOf({ log_hash: "sha256:cc" })), [
    "the log hash differs (recorded sha256:aa, replayed sha256:cc): the command on this line is not the one played",
  ]);
  assert.match(
    stepDifferences(stepOf(), stepOf({ observation_id: "courier-1#2", sim_time_ms: 5000 }))[0]!,
    /next decision is courier-1#2 at t=5s, not engineer-1#3 at t=4s/,
  );
});

test("a sweep's trajectory file is named for its scenario, mix, seed and trial", () => {
  const mix = { name: "random-engineer" };
  assert.equal(
    trajectoryFileName({ scenario: "bridge_repair", mix, seed: 7, trial: 0 }),
    "bridge_repair.random-engineer.7.0.jsonl",
  );
  assert.equal(
    trajectoryFileName({ scenario: "bridge_repair", mix, seed: 7, trial: 2 }),
    "bridge_repair.random-engineer.7.2.jsonl",
  );
});

test("a file that is not a trajectory is refused, naming the line and what is wrong", () => {
  const header = JSON.stringify(headerLine(bridgeRun, ended, { sim_events: 3, steps: 1 }));
  const step = JSON.stringify(stepOf());
  const refusal = (text: string): string => {
    try {
      parseTrajectory(text);
    } catch (error) {
      assert.ok(error instanceof TrajectoryError);
      assert.equal(error.code, "invalid_trajectory");
      return error.message;
    }
    assert.fail("the file was taken");
  };
  assert.equal(parseTrajectory(`${header}\n${step}\n`).steps.length, 1);
  assert.equal(refusal(""), "the file is empty");
  assert.match(
    refusal(`${step}\n`),
    /^line 1 must be a header of format "warren-trajectory\/1" \(got type "step"/,
  );
  assert.match(refusal(`${header}\n{"type":`), /^line 2 is not JSON/);
  const asleep = JSON.stringify(stepOf({ command: { sleep_ms: 0 } }));
  assert.match(refusal(`${header}\n${asleep}\n`), /^line 2: \/command/);
  assert.equal(refusal(`${header}\n`), "the header counts 1 steps, but the file has 0");
  const twice = header.replace('"steps":1', '"steps":2');
  assert.equal(refusal(`${twice}\n${step}\n${step}\n`), "line 3 answers engineer-1#3 again (line 2 did)");
});

test("docs/trajectory.schema.json is the protocol's declaration (npm run schema writes it)", () => {
  const file = JSON.parse(readFileSync(new URL("../docs/trajectory.schema.json", import.meta.url), "utf8"));
  assert.deepEqual(file, trajectorySchemaDocument());
});

test("a trajectory file appears whole when published, header first; a folder gone by then is trajectory_unwritable", () => {
  const dir = mkdtempSync(join(tmpdir(), "warren-trajectory-file-"));
  try {
    const path = join(dir, "run.jsonl");
    const file = new TrajectoryFile(path);
    const steps = Array.from({ length: 200 }, (_, i) => stepOf({ step: i }));
    for (const step of steps) file.add(step);
    assert.deepEqual(
      readdirSync(dir).filter((name) => !name.startsWith(".")),
      [],
      "nothing to read before it is published",
    );
    file.publish({ type: "header" });
    assert.deepEqual(readdirSync(dir), ["run.jsonl"], "and nothing hidden left");
    const lines = readFileSync(path, "utf8").split("\n");
    assert.equal(lines.length, 202, "the header, the steps, and the last newline");
    assert.deepEqual(JSON.parse(lines[0]!), { type: "header" });
    assert.deepEqual(
      lines.slice(1, -1).map((line) => JSON.parse(line).step),
      steps.map((_, i) => i),
    );

    const lost = new TrajectoryFile(join(dir, "gone.jsonl"));
    lost.add(stepOf());
    rmSync(dir, { recursive: true });
    assert.throws(
      () => lost.publish({ type: "header" }),
      (error: TrajectoryError) => error.code === "trajectory_unwritable" && /ENOENT/.test(error.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
