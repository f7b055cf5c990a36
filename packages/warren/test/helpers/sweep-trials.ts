import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NpcPolicy } from "../../src/engine/index.js";
import { createRun } from "../../src/scenarios/index.js";
import type { RunRecord } from "../../src/sweep/run-record.js";
import { runKey } from "../../src/sweep/sweep-plan.js";
import type { SweepSummary } from "../../src/sweep/sweep-summary.js";
import { runWarren } from "./warren-process.js";

export const RANDOM_ENGINEER: Record<string, NpcPolicy> = { "engineer-1": "random" };

/** A mixes file `name` in `dir`, for --agents. */
export function writeMixes(dir: string, name: string, mixes: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ mixes }));
  return file;
}

/** The hash of a bridge_repair run played in this process with that trial. */
export async function hashOf(
  seed: number,
  trial: number,
  npcPolicy: Record<string, NpcPolicy>,
): Promise<string> {
  const run = createRun({ runId: "r", scenario: "bridge_repair", seed, trial, npcPolicy });
  run.start();
  return (await run.whenEnded()).log_hash;
}

/** Every key a sweep of these mixes, seeds and trials plans, in no particular order. */
export function keysOf(scenario: string, mixes: string[], seeds: number[], trials: number[]): string[] {
  return mixes.flatMap((mix) =>
    seeds.flatMap((seed) => trials.map((trial) => runKey(scenario, mix, seed, trial))),
  );
}

export const sorted = (keys: Iterable<string>): string[] => [...keys].sort();

/** `warren sweep SCENARIO --seeds SEEDS --trials K --agents MIXES --out OUT --json`, on two local processes unless `where` says otherwise. */
export function sweepTrials(
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

/** Each row's pass@k and pass^k at k = trials, recounted from the records: at k = n a seed passes@k if any trial won, ^k if all did. */
export function assertPassRatesMatch(
  summary: SweepSummary,
  records: readonly RunRecord[],
  trials: number,
): void {
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
