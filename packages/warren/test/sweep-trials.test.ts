import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { UsageError } from "../src/cli/command.js";
import { sweepCommand } from "../src/cli/commands/sweep.js";
import type { NpcPolicy } from "../src/engine/index.js";
import { createRun } from "../src/scenarios/index.js";
import type { RunRecord } from "../src/sweep/run-record.js";
import { runKey } from "../src/sweep/sweep-plan.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";
import { bundledClient } from "./helpers/bundled-client.js";
import { redisWithWorker } from "./helpers/redis-server.js";
import { call, startTestServer, waitFor } from "./helpers/server.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-trials-"));
after(() => rmSync(root, { recursive: true, force: true }));

const RANDOM_ENGINEER: Record<string, NpcPolicy> = { "engineer-1": "random" };

function writeMixes(name: string, mixes: unknown[]): string {
  const file = join(root, name);
  writeFileSync(file, JSON.stringify({ mixes }));
  return file;
}

/** The hash of a bridge_repair run played in this process with that trial. */
async function hashOf(seed: number, trial: number, npcPolicy: Record<string, NpcPolicy>): Promise<string> {
  const run = createRun({ runId: "r", scenario: "bridge_repair", seed, trial, npcPolicy });
  run.start();
  return (await run.whenEnded()).log_hash;
}

/** Every key a sweep of these mixes, seeds and trials plans, in no particular order. */
function keysOf(scenario: string, mixes: string[], seeds: number[], trials: number[]): string[] {
  return mixes.flatMap((mix) =>
    seeds.flatMap((seed) => trials.map((trial) => runKey(scenario, mix, seed, trial))),
  );
}

const sorted = (keys: Iterable<string>): string[] => [...keys].sort();

/** `warren sweep SCENARIO --seeds SEEDS --trials K --agents MIXES --out OUT --json`, on two local processes unless `where` says otherwise. */
function sweepTrials(
  scenario: string,
  seeds: string,
  trials: number,
  mixes: string,
  out: string,
  where = ["--workers", "2"],
): ReturnType<typeof runWarren> {
  return runWarren([
    "sweep",
    scenario,
    "--seeds",
    seeds,
    "--trials",
    String(trials),
    "--agents",
    mixes,
    "--out",
    out,
    "--json",
    ...where,
  ]);
}

test("warren sweep --trials 3: each seed played 3 times, the trial told to the client, pass@3 and pass^3 as counted by hand", async () => {
  // Seed 1 wins every trial, seed 2 only trial 1, seed 3 none.
  const wins = ["1:0", "1:1", "1:2", "2:1"];
  const mixes = writeMixes("coin.json", [
    { name: "solution" },
    {
      name: "coin",
      remote: ["runner-1"],
      command: bundledClient("test/fixtures/trial-client.ts", wins.join(",")),
    },
  ]);
  const out = join(root, "coin");
  const sweep = await sweepTrials("signal_relay", "1-3", 3, mixes, out);
  assert.equal(sweep.code, 0, sweep.stderr);
  const records = readRecords(out);
  assert.deepEqual(
    sorted(records.map((r) => r.key)),
    sorted(keysOf("signal_relay", ["solution", "coin"], [1, 2, 3], [0, 1, 2])),
  );
  assert.ok(
    records.some((r) => r.key === "signal_relay/coin/2#1"),
    "a later trial's key ends #trial",
  );
  for (const r of records) {
    assert.equal(runKey(r.scenario, r.mix, r.seed, r.trial), r.key, "a record says its trial");
    if (r.mix !== "coin") continue;
    assert.deepEqual(r.client, { exit_code: 0, signal: null }, `${r.key}: told the run's own trial`);
    assert.equal(r.success, wins.includes(`${r.seed}:${r.trial}`), r.key);
  }
  for (const seed of [1, 2, 3]) {
    const hashes = records.filter((r) => r.mix === "solution" && r.seed === seed).map((r) => r.log_hash);
    assert.equal(new Set(hashes).size, 1, "the solution runners play every trial alike");
  }

  const summary = JSON.parse(sweep.stdout) as SweepSummary;
  assert.deepEqual(summary, {
    ...JSON.parse(readFileSync(join(out, "summary.json"), "utf8")),
    resumed: 0,
    errors: [],
  });
  assert.equal(summary.trials, 3);
  const coin = summary.rows.find((r) => r.mix === "coin")!;
  // By seed: pass@3 1, 1, 0 (some trial won); pass^3 1, 0, 0 (every trial won).
  assert.equal(coin.runs, 9);
  assert.equal(coin.successes, 4);
  assert.equal(coin.tasks, 3);
  assert.equal(coin.pass_at_k, 2 / 3);
  assert.deepEqual(coin.pass_at_k_ci95, wilsonInterval(2, 3));
  assert.equal(coin.pass_hat_k, 1 / 3);
  assert.deepEqual(coin.pass_hat_k_ci95, wilsonInterval(1, 3));
  const solution = summary.rows.find((r) => r.mix === "solution")!;
  assert.deepEqual([solution.pass_at_k, solution.pass_hat_k], [1, 1]);

  const table = readFileSync(join(out, "summary.txt"), "utf8");
  assert.match(
    table,
    /^scenario\s+mix\s+runs\s+success\s+95% CI\s+pass@3\s+95% CI\s+pass\^3\s+95% CI\s+sim s/,
  );
  const line = table.split("\n").find((l) => l.startsWith("signal_relay  coin"))!;
  assert.deepEqual(
    line.split(/\s+/).slice(0, 9),
    ["signal_relay", "coin", "9", "44.4%", "18.9%-73.3%", "66.7%", "20.8%-93.9%", "33.3%", "6.1%-79.2%"],
    "by hand: 4 of 9 runs, 2 of 3 seeds won once, 1 of 3 won every time",
  );
});

test("random draws anew on each trial and alike on each replay; more trials and a resume play exactly the missing (seed, trial) pairs", async () => {
  const mixes = writeMixes("random.json", [
    { name: "solution" },
    { name: "random-engineer", random: ["engineer-1"] },
  ]);
  const out = join(root, "random");
  const sweep = (trials: number) => sweepTrials("bridge_repair", "1-3", trials, mixes, out);
  const first = await sweep(2);
  assert.equal(first.code, 0, first.stderr);
  const played = new Map(readRecords(out).map((r) => [r.key, r]));
  assert.deepEqual(
    sorted(played.keys()),
    sorted(keysOf("bridge_repair", ["solution", "random-engineer"], [1, 2, 3], [0, 1])),
  );
  for (const seed of [1, 2, 3]) {
    const random = (trial: number) => played.get(runKey("bridge_repair", "random-engineer", seed, trial))!;
    assert.notEqual(
      random(0).log_hash,
      random(1).log_hash,
      `seed ${seed}: another trial, another random play`,
    );
    for (const trial of [0, 1]) {
      assert.equal(random(trial).log_hash, await hashOf(seed, trial, RANDOM_ENGINEER), random(trial).key);
    }
    assert.equal(
      played.get(runKey("bridge_repair", "solution", seed, 1))!.log_hash,
      played.get(runKey("bridge_repair", "solution", seed, 0))!.log_hash,
    );
  }
  // Trial 0 is the run warren run plays, as before there were trials.
  const solo = await runWarren([
    "run",
    "bridge_repair",
    "--seed",
    "2",
    "--policy",
    "engineer-1=random",
    "--json",
  ]);
  assert.equal(JSON.parse(solo.stdout).log_hash, played.get("bridge_repair/random-engineer/2")!.log_hash);

  // A third trial for the finished sweep: only the third trials are played.
  const recordsFile = join(out, "runs.jsonl");
  const before = readFileSync(recordsFile, "utf8");
  const more = await sweep(3);
  assert.equal(more.code, 0, more.stderr);
  assert.match(more.stderr, /resuming: 12 of 18 runs already recorded/);
  assert.ok(
    readFileSync(recordsFile, "utf8").startsWith(before),
    "the earlier records are kept as they were",
  );
  const added = readRecords(out).slice(played.size);
  assert.deepEqual(
    sorted(added.map((r) => r.key)),
    sorted(keysOf("bridge_repair", ["solution", "random-engineer"], [1, 2, 3], [2])),
  );

  // Runs lost from the folder, as a kill loses them: a restart plays exactly those (seed, trial) pairs, alike.
  const all = readRecords(out);
  const lost = [
    "bridge_repair/random-engineer/2#1",
    "bridge_repair/solution/3",
    "bridge_repair/random-engineer/1#2",
  ];
  const kept = all.filter((r) => !lost.includes(r.key));
  writeFileSync(recordsFile, kept.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const resumed = await sweep(3);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming: 15 of 18 runs already recorded/);
  const replayed = readRecords(out).slice(kept.length);
  assert.deepEqual(sorted(replayed.map((r) => r.key)), sorted(lost));
  for (const r of replayed) {
    assert.equal(
      r.log_hash,
      all.find((earlier) => earlier.key === r.key)!.log_hash,
      `${r.key} replays alike`,
    );
  }

  const summary = JSON.parse(resumed.stdout) as SweepSummary & { resumed: number };
  assert.equal(summary.resumed, 15);
  assert.equal(summary.trials, 3);
  assertPassRatesMatch(summary, readRecords(out), 3);
});

/** Each row's pass@k and pass^k at k = trials, recounted from the records: at k = n a seed passes@k if any trial won, ^k if all did. */
function assertPassRatesMatch(summary: SweepSummary, records: readonly RunRecord[], trials: number): void {
  for (const row of summary.rows) {
    const own = records.filter((r) => r.scenario === row.scenario && r.mix === row.mix);
    const seeds = [...new Set(own.map((r) => r.seed))];
    const won = seeds.map((seed) => own.filter((r) => r.seed === seed && r.success).length);
    assert.equal(row.runs, seeds.length * trials, `${row.mix}: every trial of every seed`);
    assert.equal(row.tasks, seeds.length);
    assert.equal(row.pass_at_k, won.filter((c) => c > 0).length / seeds.length, row.mix);
    assert.equal(row.pass_hat_k, won.filter((c) => c === trials).length / seeds.length, row.mix);
  }
}

test("a queued sweep carries each run's trial to its worker: the hashes of local play", async (t) => {
  const { url, worker } = await redisWithWorker(t);
  const mixes = writeMixes("queued.json", [{ name: "random-engineer", random: ["engineer-1"] }]);
  const out = join(root, "queued");
  const sweep = await sweepTrials("bridge_repair", "1-2", 2, mixes, out, ["--queue", url]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const records = readRecords(out);
  assert.equal(records.length, 4);
  for (const r of records) assert.equal(r.log_hash, await hashOf(r.seed, r.trial!, RANDOM_ENGINEER), r.key);
  assert.equal(worker.stderr().match(/took /g)?.length, 4);
  const summary = JSON.parse(sweep.stdout) as SweepSummary;
  assert.equal(summary.trials, 2);
  assertPassRatesMatch(summary, records, 2);
});

test("a run created over HTTP with a trial: in its view, and its random baseline as the engine plays that trial", async () => {
  const server = await startTestServer();
  try {
    const create = (body: unknown) =>
      call(server.url, "POST", "/v1/runs", { query: { scenario: "bridge_repair", seed: 2 }, body });
    const created = await create({ npc_policy: RANDOM_ENGINEER, trial: 1 });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json.trial, 1);
    const ended = await waitFor("the run's end", async () => {
      const view = (await call(server.url, "GET", `/v1/runs/${created.json.run_id}`)).json;
      return view.status === "running" ? undefined : view;
    });
    assert.equal(ended.log_hash, await hashOf(2, 1, RANDOM_ENGINEER));
    assert.equal((await create({})).json.trial, 0, "trial 0 unless asked");
    const refused = await create({ trial: -1 });
    assert.equal(refused.status, 400);
    assert.match(refused.json.detail, /trial/);
  } finally {
    await server.close();
  }
});

test("--trials refuses what is not a count from 1 to 1000, and more than a million runs of a scenario and mix", async () => {
  const io = { out: () => {}, err: () => {} };
  for (const [args, message] of [
    [["--trials", "0"], /--trials must be an integer from 1 to 1000 \(got "0"\)/],
    [["--trials", "abc"], /--trials must be an integer from 1 to 1000 \(got "abc"\)/],
    [["--trials", "1001"], /--trials must be an integer from 1 to 1000 \(got "1001"\)/],
    [
      ["--trials", "1000", "--seeds", "1-1001"],
      /1001 seeds of 1000 trials each is more than the 1000000 runs/,
    ],
  ] as const) {
    await assert.rejects(
      sweepCommand.run(["bridge_repair", ...args], io),
      (error: Error) => error instanceof UsageError && message.test(error.message),
      args.join(" "),
    );
  }
  const cli = await runWarren(["sweep", "bridge_repair", "--trials", "0"]);
  assert.equal(cli.code, 2, "a usage error");
  assert.match(cli.stderr, /^warren sweep: --trials must be an integer from 1 to 1000 \(got "0"\)$/m);
  assert.match(cli.stderr, /Usage: warren sweep .*\[--trials K\]/);
});
