// warren sweep --trajectories: a file per run, whole after a resume, remote agents' receipts in
// them, and the refusals (a queue, an unwritable folder) before anything is played.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { TrajectoryHeader, TrajectoryStep } from "../src/protocol/index.js";
import { bundledClient } from "./helpers/bundled-client.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-trajectories-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** `warren sweep SCENARIOS --seeds SEEDS --out OUT --trajectories TRACES ...more`. */
function sweepTraced(scenarios: string[], seeds: string, out: string, traces: string, ...more: string[]) {
  return runWarren([
    "sweep",
    ...scenarios,
    "--seeds",
    seeds,
    "--out",
    out,
    "--trajectories",
    traces,
    ...more,
  ]);
}

function readTrajectory(file: string): { header: TrajectoryHeader; steps: TrajectoryStep[] } {
  const [header, ...steps] = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  return { header, steps };
}

test("warren sweep --trajectories --trials 2: one whole file per run, named for it, and a resume rewrites a run's file whole", async () => {
  const out = join(root, "solution");
  const traces = join(root, "solution-trajectories");
  const sweep = () =>
    sweepTraced(
      ["bridge_repair", "signal_relay"],
      "1-2",
      out,
      traces,
      "--trials",
      "2",
      "--workers",
      "2",
      "--json",
    );
  const first = await sweep();
  assert.equal(first.code, 0, first.stderr);
  const records = readRecords(out);
  assert.equal(records.length, 8);
  const expected = records.map((r) => `${r.scenario}.${r.mix}.${r.seed}.${r.trial}.jsonl`).sort();
  assert.deepEqual(readdirSync(traces).sort(), expected, "a file per run, and no hidden one left");
  for (const record of records) {
    const { header, steps } = readTrajectory(
      join(traces, `${record.scenario}.solution.${record.seed}.${record.trial}.jsonl`),
    );
    assert.deepEqual(header.sweep, { key: record.key, mix: "solution" });
    assert.deepEqual(
      [header.scenario, header.seed, header.trial],
      [record.scenario, record.seed, record.trial],
    );
    assert.equal(header.result.log_hash, record.log_hash);
    assert.equal(steps.length, header.result.steps);
    assert.equal(steps.length, record.commands, "every decision a runner made is a step");
  }

  // Interrupted after bridge_repair seed 2 trial 1 had left half a file (and a hidden one) but no
  // record; signal_relay seed 1 was recorded by a start without --trajectories.
  const lost = records.find((r) => r.key === "bridge_repair/solution/2#1")!;
  writeFileSync(
    join(out, "runs.jsonl"),
    records
      .filter((r) => r !== lost)
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(""),
  );
  const lostFile = join(traces, "bridge_repair.solution.2.1.jsonl");
  const whole = readFileSync(lostFile, "utf8");
  writeFileSync(lostFile, whole.slice(0, whole.length / 2));
  writeFileSync(join(traces, ".bridge_repair.solution.2.1.jsonl.1.ab.steps"), "{");
  rmSync(join(traces, "signal_relay.solution.1.0.jsonl"));
  const resumed = await sweep();
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(JSON.parse(resumed.stdout).resumed, 7);
  assert.match(
    resumed.stderr,
    /1 of the runs already recorded have no trajectory in .* \(recorded without --trajectories\)/,
  );
  assert.equal(readFileSync(lostFile, "utf8"), whole, "the run played again wrote its file whole, alike");
  assert.equal(readRecords(out).length, 8);
});

test("a remote mix's trajectory carries its client's receipts; replayed, it reaches the recorded hash", async () => {
  const mixes = join(root, "remote.json");
  writeFileSync(
    mixes,
    JSON.stringify({
      mixes: [
        {
          name: "remote-lookout",
          remote: ["lookout-1"],
          command: bundledClient("examples/solution-client.ts"),
        },
      ],
    }),
  );
  const traces = join(root, "remote-trajectories");
  const sweep = await sweepTraced(["bridge_repair"], "4", join(root, "remote"), traces, "--agents", mixes);
  assert.equal(sweep.code, 0, sweep.stderr);
  const file = join(traces, "bridge_repair.remote-lookout.4.0.jsonl");
  const { header, steps } = readTrajectory(file);
  assert.deepEqual(header.controlled_agents, ["lookout-1"]);
  const lookout = steps.filter((s) => s.agent === "lookout-1");
  assert.ok(lookout.length > 0);
  for (const step of lookout) {
    assert.equal(step.receipt?.status, "accepted", "the client's command's receipt");
    assert.equal(step.receipt?.observation_id, step.observation_id);
  }
  assert.ok(steps.filter((s) => s.agent !== "lookout-1").every((s) => s.receipt === null));
  const replay = await runWarren(["replay", "--trajectory", file]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stderr, new RegExp(`replay matches the trajectory: ${header.result.log_hash}`));
});

test("--trajectories is refused with a code on a queue, and on a folder it cannot write, before anything is played", async () => {
  const traces = join(root, "never");
  const queued = await sweepTraced(
    ["signal_relay"],
    "1",
    join(root, "queued"),
    traces,
    "--queue",
    "redis://127.0.0.1:1",
  );
  assert.equal(queued.code, 1);
  assert.match(queued.stderr, /warren sweep: trajectories_need_local_pool: .* cannot go with --queue/);
  assert.equal(existsSync(traces), false);

  const aFile = join(root, "a-file");
  writeFileSync(aFile, "");
  const out = join(root, "unwritable");
  const unwritable = await sweepTraced(["signal_relay"], "1", out, join(aFile, "traces"));
  assert.equal(unwritable.code, 1);
  assert.match(
    unwritable.stderr,
    /warren sweep: trajectory_unwritable: cannot write trajectories in .*: ENOTDIR/,
  );
  assert.equal(existsSync(join(out, "runs.jsonl")), false, "no run was played");
});
