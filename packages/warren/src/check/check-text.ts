import { type CheckReport, type PlayerResult, solvesAllowed } from "./check-report.js";

const COLUMNS = ["runner", "agent", "solved", "may solve", "same hash"];
const NUMERIC = new Set([2, 4]);

/** A check's report as a person reads it: a row per player, a line per check, the outcome last. */
export function checkText(report: CheckReport): string {
  const rows = report.players.map((p) => [
    p.runner,
    p.agent ?? "team",
    `${p.solved_seeds.length}/${p.seeds}`,
    maySolve(p),
    `${p.seeds - p.differing_seeds.length}/${p.seeds}`,
  ]);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)));
  // Names align left, counts right.
  const render = (cells: string[]): string =>
    cells
      .map((cell, i) => (NUMERIC.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const failed = report.checks.filter((c) => !c.passed).map((c) => c.check);
  return [
    `${report.scenario}: seeds 1–${report.seeds}, each played ${report.plays_per_seed} times by each player`,
    render(COLUMNS),
    ...rows.map(render),
    "",
    ...report.checks.map((c) => `${c.passed ? "pass" : "FAIL"}  ${c.check}: ${c.detail}`),
    failed.length === 0
      ? `${report.scenario} passes the check`
      : `${report.scenario} fails the check: ${failed.join(", ")}`,
  ].join("\n");
}

/** What the check allows the player to solve. */
function maySolve(player: PlayerResult): string {
  const { least, most } = solvesAllowed(player, player.seeds);
  return least === player.seeds ? "all" : `at most ${most}`;
}
