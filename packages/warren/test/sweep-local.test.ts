import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { type CliCommand, UsageError } from "../src/cli/command.js";
import { sweepCommand } from "../src/cli/commands/sweep.js";
import { workerCommand } from "../src/cli/commands/worker.js";
import { createRun } from "../src/scenarios/index.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { assertSummaryMatchesRecords } from "./helpers/sweep-table.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];

const root = mkdtempSync(join(tmpdir(), "warren-sweep-"));
after(() => rmSync(root, { recursive: true, force: true }));

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
  for (const r of records) {
    const run = createRun({ runId: "r", scenario: r.scenario, seed: r.seed });
    run.start();
    assert.equal(r.log_hash, (await run.whenEnded()).log_hash, r.key);
    // Counted from the run's own log: decisions not expired, and refusals.
    const sim = run.events(0).filter((e) => e.sim);
    assert.equal(r.commands, sim.filter((e) => e.kind === "decision" && e.data.expired !== true).length);
    assert.equal(r.refusals, sim.filter((e) => (e.kind as string) === "refused").length);
    assert.equal(r.key, `${r.scenario}/solution/${r.seed}`);
  }
  // And through the real command, one seed of each scenario.
  const cli = await Promise.all(SCENARIOS.map((s) => runWarren(["run", s, "--seed", "7", "--json"])));
  for (const [i, scenario] of SCENARIOS.entries()) {
    const solo = JSON.parse(cli[i]!.stdout) as { log_hash: string; sim_time_ms: number; scores: unknown };
    const record = records.find((r) => r.key === `${scenario}/solution/7`)!;
    assert.equal(record.log_hash, solo.log_hash);
    assert.equal(record.sim_time_ms, solo.sim_time_ms);
    assert.deepEqual(record.scores, solo.scores, "a record carries the scores warren run gives");
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
  assertSummaryMatchesRecords(
    summary as SweepSummary,
    readFileSync(join(out, "summary.txt"), "utf8"),
    records,
  );
  for (const row of summary.rows) {
    assert.equal(row.runs, 20);
    // The solution team against itself: as fast as the solution, and nobody under test.
    assert.equal(row.mean_time_ratio, 1);
    assert.equal(row.mean_tested_contribution, null);
  }
});

test("warren sweep and warren worker refuse bad input with a usage error", async () => {
  const badMix = join(root, "bad-mix.json");
  writeFileSync(badMix, JSON.stringify({ mixes: [{ name: "x", remote: ["engineer-1"] }] }));
  const wrongAgent = join(root, "wrong-agent.json");
  writeFileSync(wrongAgent, JSON.stringify({ mixes: [{ name: "x", none: ["engineer-1"] }] }));
  const cases: [CliCommand, string[], RegExp][] = [
    [sweepCommand, [], /name at least one scenario/],
    [sweepCommand, ["bridge_repair", "--seeds", "9-3"], /a seed range runs upwards/],
    [sweepCommand, ["bridge_repair", "--seeds", "1-2000000"], /at most 1000000 seeds/],
    [sweepCommand, ["bridge_repair", "--workers", "0"], /--workers must be an integer from 1 to 256/],
    [sweepCommand, ["bridge_repair", "--queue", "http://x"], /redis:\/\/ or rediss:\/\//],
    [sweepCommand, ["bridge_repair", "--agents", badMix], /needs a "command" that plays them/],
    [
      sweepCommand,
      ["bridge_repair", "--agents", join(root, "absent.json")],
      /--agents .*absent\.json: ENOENT/,
    ],
    [
      sweepCommand,
      ["signal_relay", "--agents", wrongAgent],
      /names agent "engineer-1", which signal_relay does not have/,
    ],
    [workerCommand, [], /--queue redis:\/\/HOST:PORT is required/],
    [
      workerCommand,
      ["--queue", "redis://h:1", "--concurrency", "0"],
      /--concurrency must be an integer from 1/,
    ],
    [
      workerCommand,
      ["--queue", "redis://h:1", "--lock-ms", "999"],
      /--lock-ms must be an integer of at least 1000/,
    ],
  ];
  const io = { out: () => {}, err: () => {} };
  for (const [command, args, message] of cases) {
    await assert.rejects(
      command.run(args, io),
      (error: Error) => error instanceof UsageError && message.test(error.message),
      args.join(" "),
    );
  }
  // Through the real command line: a usage error exits 2 with the usage.
  const cli = await runWarren(["sweep", "moon_base"]);
  assert.equal(cli.code, 2);
  assert.match(cli.stderr, /there is no scenario "moon_base"[\s\S]*Usage: warren sweep SCENARIO\.\.\./);
});

test("without --out a sweep writes under the user's state folder, says where, and leaves the current folder alone", async () => {
  const state = join(root, "state");
  const here = join(root, "here");
  mkdirSync(here);
  const sweep = await runWarren(
    ["sweep", "signal_relay", "bridge_repair", "--seeds", "1-2", "--workers", "1"],
    here,
    { ...process.env, XDG_STATE_HOME: state },
  );
  assert.equal(sweep.code, 0, sweep.stderr);
  const dir = join(state, "warren", "sweeps", "signal_relay+bridge_repair");
  assert.ok(sweep.stderr.includes(`writing to ${dir}\n`), sweep.stderr);
  assert.ok(sweep.stdout.includes(`records: ${join(dir, "runs.jsonl")}\n`), sweep.stdout);
  assert.equal(readRecords(dir).length, 4);
  assert.deepEqual(readdirSync(here), []);
});

test("an unreachable Redis is an error saying so, for the sweep and the worker alike", async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const url = `redis://127.0.0.1:${closed}`;
  const [sweep, worker] = await Promise.all([
    runWarren(["sweep", "signal_relay", "--seeds", "1", "--queue", url, "--out", join(root, "no-redis")]),
    runWarren(["worker", "--queue", url]),
  ]);
  for (const result of [sweep, worker]) {
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(`cannot reach Redis at 127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED`),
    );
  }
});
