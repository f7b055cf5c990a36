import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { rowUsage } from "../src/sweep/row-usage.js";
import { type RunDigest, type SweepSummary, summarize, summaryTable } from "../src/sweep/sweep-summary.js";
import { bundledClient } from "./helpers/bundled-client.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-usage-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A run as the summary keeps it, with its score and, when given, its usage. */
function digest(mix: string, score: number, usage?: RunDigest["usage"]): RunDigest {
  return {
    scenario: "s",
    mix,
    seed: 1,
    success: score === 1,
    sim_time_ms: 1000,
    time_ratio: null,
    tested_contribution: null,
    commands: 2,
    refusals: 0,
    wall_time_ms: 5,
    score,
    ...(usage ? { usage } : {}),
  };
}

test("a row's usage: means per run (a run reporting none counts 0), and the mean score against them", () => {
  const row = rowUsage([
    digest("m", 1, { input_tokens: 3000, output_tokens: 1000, cost: 0.75 }),
    digest("m", 0.5, { input_tokens: 1000, output_tokens: 0, cost: null }),
    digest("m", 0),
  ]);
  // Means: score 0.5, tokens (4000 + 1000 + 0) / 3, cost 0.75 / 3 = 0.25.
  assert.deepEqual(row, {
    mean_score: 0.5,
    mean_input_tokens: 4000 / 3,
    mean_output_tokens: 1000 / 3,
    mean_cost: 0.25,
    score_per_1k_tokens: (0.5 * 1000) / (5000 / 3),
    score_per_cost: 2,
  });
  assert.deepEqual(rowUsage([digest("m", 1)]), {
    mean_score: 1,
    mean_input_tokens: null,
    mean_output_tokens: null,
    mean_cost: null,
    score_per_1k_tokens: null,
    score_per_cost: null,
  });
});

test("with no usage reported the summary and its table are as they were: no usage field, no usage column", () => {
  const summary = summarize([digest("a", 1), digest("b", 0)]);
  for (const row of summary.rows) assert.ok(!("mean_score" in row), "no usage fields");
  const heading = summaryTable(summary).split("\n")[0]!;
  assert.equal(
    heading.split(/\s{2,}/).join("|"),
    "scenario|mix|runs|success|95% CI|sim s to success|time ratio|tested contrib|commands|refusals|wall ms",
  );
});

test("warren sweep: a remote client reporting usage gives the score per 1,000 tokens and per unit of cost beside the score, counted by hand", async () => {
  const usage = { input_tokens: 400, output_tokens: 100, cost: 0.25 };
  const meteredMix = {
    name: "metered",
    remote: ["runner-1"],
    // Wins seed 1; noops through seed 2, which fails with score 0.
    command: bundledClient("test/fixtures/usage-client.ts", JSON.stringify(usage), "2"),
  };
  const mixes = join(root, "mixes.json");
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution" }, meteredMix] }));
  const out = join(root, "metered");
  const seeds = ["--seeds", "1-2", "--workers", "2", "--json"];
  const sweep = await runWarren(["sweep", "signal_relay", ...seeds, "--agents", mixes, "--out", out]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const records = readRecords(out);
  const metered = (seed: number) => records.find((r) => r.mix === "metered" && r.seed === seed)!;
  // By hand: runner-1 answers 3 observations on a win, 1 when it noops: 500 tokens and 0.25 each.
  assert.equal(metered(1).scores.score, 1);
  assert.deepEqual(metered(1).scores.usage, {
    input_tokens: 1200,
    output_tokens: 300,
    cost: 0.75,
    score_per_1k_tokens: 1000 / 1500,
    score_per_cost: 1 / 0.75,
  });
  assert.equal(metered(2).scores.score, 0);
  assert.deepEqual(metered(2).scores.usage, {
    input_tokens: 400,
    output_tokens: 100,
    cost: 0.25,
    score_per_1k_tokens: 0,
    score_per_cost: 0,
  });
  for (const r of records.filter((r) => r.mix === "solution")) assert.equal(r.scores.usage, undefined);

  const summary = JSON.parse(sweep.stdout) as SweepSummary;
  const row = (mix: string) => summary.rows.find((r) => r.mix === mix)!;
  // The row: mean score 0.5 over mean tokens 1000 and mean cost 0.5.
  assert.deepEqual(
    {
      mean_score: row("metered").mean_score,
      mean_input_tokens: row("metered").mean_input_tokens,
      mean_output_tokens: row("metered").mean_output_tokens,
      mean_cost: row("metered").mean_cost,
      score_per_1k_tokens: row("metered").score_per_1k_tokens,
      score_per_cost: row("metered").score_per_cost,
    },
    {
      mean_score: 0.5,
      mean_input_tokens: 800,
      mean_output_tokens: 200,
      mean_cost: 0.5,
      score_per_1k_tokens: 0.5,
      score_per_cost: 1,
    },
  );
  assert.equal(row("solution").mean_score, 1);
  assert.equal(row("solution").mean_input_tokens, null, "the scripted runners reported nothing");

  const table = readFileSync(join(out, "summary.txt"), "utf8").split("\n");
  assert.match(
    table[0]!,
    /tested contrib\s+score\s+score\/1k tok\s+score\/cost\s+tokens\s+cost\s+commands\s+refusals\s+wall ms$/,
  );
  const cells = (mix: string) => table.find((l) => l.startsWith(`signal_relay  ${mix} `))!.split(/\s+/);
  assert.deepEqual(cells("metered").slice(8, 13), ["0.500", "0.5000", "1.000", "1000.0", "0.5000"]);
  assert.deepEqual(cells("solution").slice(8, 13), ["1.000", "-", "-", "-", "-"]);
});
