import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { UsageError } from "../src/cli/command.js";
import { sweepCommand } from "../src/cli/commands/sweep.js";
import { runKey } from "../src/sweep/sweep-plan.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";
import { bundledClient } from "./helpers/bundled-client.js";
import { call, startTestServer, waitFor } from "./helpers/server.js";
import { hashOf, keysOf, RANDOM_ENGINEER, sorted, sweepTrials, writeMixes } from "./helpers/sweep-trials.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

// Trials played by a client that wins some, counted into pass@k and pass^k; a run's trial over
// HTTP; the refusals of --trials. How each trial replays and resumes: sweep-trials-replay.

const root = mkdtempSync(join(tmpdir(), "warren-sweep-trials-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("warren sweep --trials 3: each seed played 3 times, the trial told to the client, pass@3 and pass^3 as counted by hand", async () => {
  // Seed 1 wins every trial, seed 2 only trial 1, seed 3 none.
  const wins = ["1:0", "1:1", "1:2", "2:1"];
  const mixes = writeMixes(root, "coin.json", [
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
