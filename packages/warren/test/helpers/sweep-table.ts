import assert from "node:assert/strict";
import type { RunRecord } from "../../src/sweep/run-record.js";
import type { SweepSummary } from "../../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../../src/sweep/wilson.js";

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
const fixed = (x: number | null, digits: number): string => (x === null ? "-" : x.toFixed(digits));
const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * Recomputes every row of a sweep's summary, and its line in the text table, from the records
 * alone, as docs/sweeps.md defines each column.
 */
export function assertSummaryMatchesRecords(
  summary: SweepSummary,
  table: string,
  records: readonly RunRecord[],
): void {
  assert.equal(summary.runs, records.length);
  assert.equal(summary.successes, records.filter((r) => r.success).length);
  const lines = table.trim().split("\n");
  assert.equal(lines.length, summary.rows.length + 1, "a heading and a line per row");
  for (const row of summary.rows) {
    const own = records.filter((r) => r.scenario === row.scenario && r.mix === row.mix);
    const won = own.filter((r) => r.success);
    const tested = own
      .map((r) => r.scores.agents.filter((a) => a.controller !== "solution"))
      .filter((agents) => agents.length > 0)
      .map((agents) => agents.reduce((sum, a) => sum + a.contribution, 0));
    const ci = wilsonInterval(won.length, own.length);
    const expected = {
      scenario: row.scenario,
      mix: row.mix,
      runs: own.length,
      successes: won.length,
      success_rate: won.length / own.length,
      success_ci95: ci,
      mean_sim_ms_to_success: mean(won.map((r) => r.sim_time_ms)),
      mean_time_ratio: mean(won.flatMap((r) => (r.scores.time_ratio === null ? [] : [r.scores.time_ratio]))),
      mean_tested_contribution: mean(tested),
      mean_commands: mean(own.map((r) => r.commands)),
      mean_refusals: mean(own.map((r) => r.refusals)),
      mean_wall_ms: mean(own.map((r) => r.wall_time_ms)),
    };
    assert.deepEqual(row, expected, `${row.scenario} ${row.mix}`);
    const line = lines.find((l) => l.split(/\s+/).slice(0, 2).join(" ") === `${row.scenario} ${row.mix}`);
    assert.ok(line, `a table line for ${row.scenario} ${row.mix}`);
    assert.deepEqual(line.split(/\s+/), [
      row.scenario,
      row.mix,
      String(own.length),
      percent(expected.success_rate),
      `${percent(ci[0])}-${percent(ci[1])}`,
      fixed(expected.mean_sim_ms_to_success === null ? null : expected.mean_sim_ms_to_success / 1000, 2),
      fixed(expected.mean_time_ratio, 3),
      fixed(expected.mean_tested_contribution, 3),
      fixed(expected.mean_commands, 2),
      fixed(expected.mean_refusals, 2),
      fixed(expected.mean_wall_ms, 1),
    ]);
  }
}
