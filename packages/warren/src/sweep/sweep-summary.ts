import { type PassRates, passRates, type TaskTrials } from "./pass-at-k.js";
import {
  type RowUsage,
  rowUsage,
  USAGE_COLUMNS,
  type UsageDigest,
  usageCells,
  usageDigestOf,
} from "./row-usage.js";
import type { RunRecord } from "./run-record.js";
import { wilsonInterval } from "./wilson.js";

/**
 * One row of a sweep's table: a scenario played by one agent mix over every seed (its tasks). With
 * more than one trial a task, it has pass@k and pass^k too, k the trials of each task; where some
 * run of the sweep reported usage, the score against it.
 */
export interface SummaryRow extends Partial<PassRates>, Partial<RowUsage> {
  scenario: string;
  mix: string;
  runs: number;
  successes: number;
  success_rate: number;
  /** Wilson score interval, 95 %. */
  success_ci95: [number, number];
  /** Mean sim time of the successful runs; null when none succeeded. */
  mean_sim_ms_to_success: number | null;
  /** Mean of the successful runs' `scores.time_ratio` (sim time over the solution's); null when none has one. */
  mean_time_ratio: number | null;
  /**
   * Mean over runs of the contribution summed over the agents under test (every agent not on its
   * solution runner: remote or a baseline); null when the mix tests no agent.
   */
  mean_tested_contribution: number | null;
  mean_commands: number;
  mean_refusals: number;
  mean_wall_ms: number;
}

export interface SweepSummary {
  runs: number;
  successes: number;
  /** The trials of each task, when more than one: the k of the rows' pass@k and pass^k. */
  trials?: number;
  rows: SummaryRow[];
}

/**
 * What the table needs of a run: a sweep keeps this of each run rather than its whole record, so
 * a sweep of a million runs does not hold a million records.
 */
export interface RunDigest extends UsageDigest {
  scenario: string;
  mix: string;
  seed: number;
  success: boolean;
  sim_time_ms: number;
  time_ratio: number | null;
  /** The contribution summed over the agents under test; null when every agent ran the solution. */
  tested_contribution: number | null;
  commands: number;
  refusals: number;
  wall_time_ms: number;
}

export function digestOf(record: RunRecord): RunDigest {
  const tested = record.scores.agents.filter((a) => a.controller !== "solution");
  return {
    scenario: record.scenario,
    mix: record.mix,
    seed: record.seed,
    success: record.success,
    sim_time_ms: record.sim_time_ms,
    time_ratio: record.scores.time_ratio ?? null,
    tested_contribution: tested.length === 0 ? null : tested.reduce((sum, a) => sum + a.contribution, 0),
    commands: record.commands,
    refusals: record.refusals,
    wall_time_ms: record.wall_time_ms,
    ...usageDigestOf(record.scores),
  };
}

/**
 * The table of a sweep's runs, one row per (scenario, mix) in the order they first appear; with
 * `trials` above 1, each row's pass@k and pass^k at k = trials; with usage in some run, each row's
 * score against it.
 */
export function summarize(runs: readonly RunDigest[], trials = 1): SweepSummary {
  const groups = new Map<string, RunDigest[]>();
  for (const run of runs) {
    const id = `${run.scenario}\u0000${run.mix}`;
    const group = groups.get(id);
    if (group) group.push(run);
    else groups.set(id, [run]);
  }
  const withUsage = runs.some((r) => r.usage !== undefined);
  const rows = [...groups.values()].map((group): SummaryRow => {
    const won = group.filter((r) => r.success);
    return {
      scenario: group[0]!.scenario,
      mix: group[0]!.mix,
      runs: group.length,
      successes: won.length,
      success_rate: won.length / group.length,
      success_ci95: wilsonInterval(won.length, group.length),
      ...(trials > 1 ? passRates(tasksOf(group), trials) : {}),
      mean_sim_ms_to_success: meanOrNull(won.map((r) => r.sim_time_ms)),
      mean_time_ratio: meanOrNull(won.flatMap((r) => r.time_ratio ?? [])),
      mean_tested_contribution: meanOrNull(group.flatMap((r) => r.tested_contribution ?? [])),
      mean_commands: mean(group.map((r) => r.commands)),
      mean_refusals: mean(group.map((r) => r.refusals)),
      mean_wall_ms: mean(group.map((r) => r.wall_time_ms)),
      ...(withUsage ? rowUsage(group) : {}),
    };
  });
  return {
    runs: runs.length,
    successes: runs.filter((r) => r.success).length,
    ...(trials > 1 ? { trials } : {}),
    rows,
  };
}

/** A row's runs as tasks: by seed, how many were played and how many succeeded. */
function tasksOf(group: readonly RunDigest[]): TaskTrials[] {
  const tasks = new Map<number, TaskTrials>();
  for (const run of group) {
    const task = tasks.get(run.seed) ?? { trials: 0, successes: 0 };
    task.trials++;
    if (run.success) task.successes++;
    tasks.set(run.seed, task);
  }
  return [...tasks.values()];
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : mean(values);
}

const COLUMNS = [
  "scenario",
  "mix",
  "runs",
  "success",
  "95% CI",
  "sim s to success",
  "time ratio",
  "tested contrib",
  "commands",
  "refusals",
  "wall ms",
];
/** Where pass@k and pass^k go, when there are trials: beside the success rate. */
const PASS_COLUMNS_AT = 5;
/** Where the usage columns go, when there is usage: before the other means per run. */
const USAGE_COLUMNS_AT = COLUMNS.indexOf("commands");

/** The summary as an aligned text table (means per run; pass@k and pass^k means per task; usage only when reported). */
export function summaryTable(summary: SweepSummary): string {
  const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const rate = (x: number | null | undefined): string => (x == null ? "-" : percent(x));
  const interval = (ci: [number, number] | null | undefined): string =>
    ci == null ? "-" : `${percent(ci[0])}-${percent(ci[1])}`;
  const fixed = (x: number | null, digits: number): string => (x === null ? "-" : x.toFixed(digits));
  const k = summary.trials;
  const titles = [...COLUMNS];
  const withUsage = summary.rows.some((row) => row.mean_score !== undefined);
  if (withUsage) titles.splice(USAGE_COLUMNS_AT, 0, ...USAGE_COLUMNS);
  if (k !== undefined) titles.splice(PASS_COLUMNS_AT, 0, `pass@${k}`, "95% CI", `pass^${k}`, "95% CI");
  const lines = summary.rows.map((row) => {
    const cells = [
      row.scenario,
      row.mix,
      String(row.runs),
      percent(row.success_rate),
      interval(row.success_ci95),
      fixed(row.mean_sim_ms_to_success === null ? null : row.mean_sim_ms_to_success / 1000, 2),
      fixed(row.mean_time_ratio, 3),
      fixed(row.mean_tested_contribution, 3),
      row.mean_commands.toFixed(2),
      row.mean_refusals.toFixed(2),
      row.mean_wall_ms.toFixed(1),
    ];
    if (withUsage) cells.splice(USAGE_COLUMNS_AT, 0, ...usageCells(row as RowUsage));
    if (k !== undefined) {
      const pass = [
        rate(row.pass_at_k),
        interval(row.pass_at_k_ci95),
        rate(row.pass_hat_k),
        interval(row.pass_hat_k_ci95),
      ];
      cells.splice(PASS_COLUMNS_AT, 0, ...pass);
    }
    return cells;
  });
  const widths = titles.map((title, i) => Math.max(title.length, ...lines.map((l) => l[i]!.length)));
  // Names align left, numbers right.
  const render = (cells: string[]): string =>
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [render(titles), ...lines.map(render)].join("\n");
}
