import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { RunSummary } from "../src/engine/index.js";
import { createRun } from "../src/scenarios/index.js";
import type { RunRecord } from "../src/sweep/run-record.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";
import { readRecords, runWarren, startWarren } from "./helpers/warren-process.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];
const root = mkdtempSync(join(tmpdir(), "warren-sweep-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** The summary `warren run SCENARIO --seed N` gives: every agent on its runner, pace null. */
async function soloSummary(scenario: string, seed: number): Promise<RunSummary> {
  const run = createRun({ runId: `${scenario}-${seed}`, scenario, seed, npcPolicy: "solution", pace: null });
  run.start();
  return run.whenEnded();
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

test("a sweep of 3 scenarios x 20 seeds records the hashes warren run gives; its table matches its records", async () => {
  const out = join(root, "full");
  const sweep = await runWarren([
    "sweep",
    ...SCENARIOS,
    "--seeds",
    "1-20",
    "--workers",
    "2",
    "--out",
    out,
    "--json",
  ]);
  assert.equal(sweep.code, 0, sweep.stderr);
  assert.match(sweep.stderr, /60\/60 done, 0 failed, [\d.]+ runs\/s, finished/);
  const records = readRecords(out);
  assert.equal(records.length, 60);
  assert.equal(new Set(records.map((r) => r.key)).size, 60);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  for (const r of records) {
    const solo = await soloSummary(r.scenario, r.seed);
    assert.equal(r.log_hash, solo.log_hash, r.key);
    // The commands and refusals counted are the run's own, as its scores count them.
    assert.equal(r.commands, sum(solo.scores.agents.map((a) => a.commands)), r.key);
    assert.equal(r.refusals, sum(solo.scores.agents.map((a) => a.refusals)), r.key);
    assert.equal(r.key, `${r.scenario}/solution/${r.seed}`);
  }
  // And through the real command, one seed of each scenario.
  const cli = await Promise.all(SCENARIOS.map((s) => runWarren(["run", s, "--seed", "7", "--json"])));
  for (const [i, scenario] of SCENARIOS.entries()) {
    const solo = JSON.parse(cli[i]!.stdout) as { log_hash: string; sim_time_ms: number };
    const record = records.find((r) => r.key === `${scenario}/solution/7`)!;
    assert.equal(record.log_hash, solo.log_hash);
    assert.equal(record.sim_time_ms, solo.sim_time_ms);
  }

  const { resumed, errors, ...summary } = JSON.parse(sweep.stdout) as SweepSummary & {
    resumed: number;
    errors: unknown[];
  };
  assert.equal(resumed, 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(summary, JSON.parse(readFileSync(join(out, "summary.json"), "utf8")));
  assert.equal(summary.runs, 60);
  assert.deepEqual(
    summary.rows.map((row) => row.scenario),
    SCENARIOS,
  );
  const table = readFileSync(join(out, "summary.txt"), "utf8").trim().split("\n");
  for (const row of summary.rows) {
    const own = records.filter((r) => r.scenario === row.scenario);
    const won = own.filter((r) => r.success);
    assert.equal(row.runs, 20);
    assert.equal(row.successes, won.length);
    assert.deepEqual(row.success_ci95, wilsonInterval(won.length, own.length));
    assert.equal(row.mean_sim_ms_to_success, mean(won.map((r) => r.sim_time_ms)));
    assert.equal(row.mean_commands, mean(own.map((r) => r.commands)));
    assert.equal(row.mean_refusals, mean(own.map((r) => r.refusals)));
    assert.equal(row.mean_wall_ms, mean(own.map((r) => r.wall_time_ms)));
    const line = table.find((l) => l.startsWith(`${row.scenario} `))!.split(/\s+/);
    const [lo, hi] = wilsonInterval(won.length, own.length);
    assert.deepEqual(line, [
      row.scenario,
      "solution",
      "20",
      `${((won.length / 20) * 100).toFixed(1)}%`,
      `${(lo * 100).toFixed(1)}%-${(hi * 100).toFixed(1)}%`,
      (mean(won.map((r) => r.sim_time_ms)) / 1000).toFixed(2),
      mean(own.map((r) => r.commands)).toFixed(2),
      mean(own.map((r) => r.refusals)).toFixed(2),
      mean(own.map((r) => r.wall_time_ms)).toFixed(1),
    ]);
  }
});

test("a sweep killed part-way resumes and plays only the runs still missing", async () => {
  const out = join(root, "resumed");
  // Paced so that the sweep is still going when it is killed (pace never changes a run).
  const mixes = join(root, "paced.json");
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 500 }] }));
  const args = ["sweep", ...SCENARIOS, "--seeds", "1-20", "--workers", "1", "--agents", mixes, "--out", out];
  const first = startWarren(args);
  const recordsFile = join(out, "runs.jsonl");
  while (!existsSync(recordsFile) || readRecords(out).length < 5) {
    const ended = await Promise.race([first.exited, new Promise((r) => setTimeout(r, 20, undefined))]);
    assert.equal(ended, undefined, `the sweep ended before it was killed: ${first.stderr()}`);
  }
  first.child.kill("SIGKILL");
  assert.equal((await first.exited).signal, "SIGKILL");
  const before = readFileSync(recordsFile, "utf8");
  const kept = readRecords(out);
  assert.ok(kept.length >= 5 && kept.length < 60, `${kept.length} runs recorded before the kill`);

  const second = await runWarren([...args, "--json"]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, new RegExp(`resuming: ${kept.length} of 60 runs already recorded`));
  assert.equal(JSON.parse(second.stdout).resumed, kept.length);
  const records = readRecords(out);
  assert.equal(records.length, 60, "each run is recorded once");
  assert.equal(new Set(records.map((r) => r.key)).size, 60);
  assert.ok(
    readFileSync(recordsFile, "utf8").startsWith(before),
    "the earlier records are kept as they were",
  );
  for (const r of records.slice(kept.length, kept.length + 5)) {
    assert.equal(r.log_hash, (await soloSummary(r.scenario, r.seed)).log_hash, r.key);
  }
});

test("agent mixes: a remote client plays its agents per run, idle agents do nothing, a dying client crashes its run", async () => {
  const out = join(root, "mixes");
  const mixes = join(root, "mixes.json");
  writeFileSync(
    mixes,
    JSON.stringify({
      mixes: [
        { name: "solution" },
        {
          name: "remote-engineer",
          remote: ["engineer-1"],
          command: [process.execPath, "--import", "tsx", "examples/solution-client.ts"],
        },
        { name: "no-lookout", none: ["lookout-1"] },
        { name: "quitter", remote: ["courier-1"], command: [process.execPath, "-e", "process.exit(3)"] },
      ],
    }),
  );
  const sweep = await runWarren([
    "sweep",
    "bridge_repair",
    "--seeds",
    "1-3",
    "--agents",
    mixes,
    "--out",
    out,
    "--workers",
    "2",
  ]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const byKey = new Map<string, RunRecord>(readRecords(out).map((r) => [r.key, r]));
  assert.equal(byKey.size, 12);
  for (const seed of [1, 2, 3]) {
    const solo = byKey.get(`bridge_repair/solution/${seed}`)!;
    const remote = byKey.get(`bridge_repair/remote-engineer/${seed}`)!;
    // Remote play over HTTP decides as the runner would, so the run is the same run.
    assert.equal(remote.log_hash, solo.log_hash);
    assert.equal(remote.commands, solo.commands);
    assert.deepEqual(remote.client, { exit_code: 0, signal: null });
    const idle = byKey.get(`bridge_repair/no-lookout/${seed}`)!;
    assert.notEqual(idle.log_hash, solo.log_hash);
    assert.equal(idle.success, false, "every role is needed: without the lookout the run fails");
    const quitter = byKey.get(`bridge_repair/quitter/${seed}`)!;
    assert.equal(quitter.status, "crashed");
    assert.match(quitter.status_reason, /the remote client exited \(code 3\)/);
    assert.equal(quitter.client?.exit_code, 3);
  }
  assert.match(sweep.stdout, /^bridge_repair\s+quitter\s+3\s+0\.0%/m);
});

test("warren sweep refuses bad input with a usage error", async () => {
  const badMix = join(root, "bad-mix.json");
  writeFileSync(badMix, JSON.stringify({ mixes: [{ name: "x", remote: ["engineer-1"] }] }));
  const wrongAgent = join(root, "wrong-agent.json");
  writeFileSync(wrongAgent, JSON.stringify({ mixes: [{ name: "x", none: ["engineer-1"] }] }));
  const cases: [string[], RegExp][] = [
    [["sweep"], /name at least one scenario/],
    [["sweep", "moon_base"], /there is no scenario "moon_base"/],
    [["sweep", "bridge_repair", "--seeds", "9-3"], /a seed range runs upwards/],
    [["sweep", "bridge_repair", "--seeds", "1-2000000"], /at most 1000000 seeds/],
    [["sweep", "bridge_repair", "--workers", "0"], /--workers must be an integer from 1 to 256/],
    [["sweep", "bridge_repair", "--queue", "http://x"], /redis:\/\/ or rediss:\/\//],
    [["sweep", "bridge_repair", "--agents", badMix], /needs a "command" that plays them/],
    [
      ["sweep", "signal_relay", "--agents", wrongAgent],
      /names agent "engineer-1", which signal_relay does not have/,
    ],
    [["worker"], /--queue redis:\/\/HOST:PORT is required/],
    [
      ["worker", "--queue", "redis://h:1", "--lock-ms", "10"],
      /--lock-ms must be an integer of at least 1000/,
    ],
  ];
  const results = await Promise.all(cases.map(([args]) => runWarren(args)));
  for (const [i, [args, pattern]] of cases.entries()) {
    assert.equal(results[i]!.code, 2, args.join(" "));
    assert.match(results[i]!.stderr, pattern, args.join(" "));
  }
});
