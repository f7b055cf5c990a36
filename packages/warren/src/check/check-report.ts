/**
 * What `warren scenario check` concludes from its plays. A scenario counts only when it passes all
 * three checks: it is deterministic (each play, played again, gives the same log hash), its
 * solution team solves every seed, and an agent left to noop, random or greedy beside solution
 * teammates solves at most one seed in ten. greedy is judged like the others: if telling everyone
 * what one sees, or taking what lies near, does a role, the role asks no understanding.
 */

/** Seeds a verdict names before it says how many more there are. */
const SEEDS_LISTED = 5;

export type CheckRunner = "solution" | "noop" | "random" | "greedy";

/** One player of a check: the whole team on its solution runners, or a baseline as one agent. */
export interface CheckPlayer {
  runner: CheckRunner;
  /** The agent on the baseline, the others on their solution runners; null for the whole team. */
  agent: string | null;
}

/** How one player did on the seeds. */
export interface PlayerResult extends CheckPlayer {
  seeds: number;
  solved_seeds: number[];
  /** The first seed it did not solve, and why the run ended as it did. */
  first_unsolved: { seed: number; reason: string } | null;
  /** Seeds whose plays gave different log hashes. */
  differing_seeds: number[];
  first_difference: { seed: number; hashes: string[] } | null;
}

export type CheckName = "deterministic" | "solution_solves" | "baselines_rarely_solve";

export interface CheckVerdict {
  check: CheckName;
  passed: boolean;
  /** One sentence: what was found. */
  detail: string;
}

export interface CheckReport {
  scenario: string;
  /** Seeds 1 to this many were played. */
  seeds: number;
  /** How many times each player played each seed. */
  plays_per_seed: number;
  players: PlayerResult[];
  checks: CheckVerdict[];
  passed: boolean;
}

/**
 * How many of the seeds a player may solve and pass: the solution team every one; a baseline
 * (noop, random or greedy) one in ten at most, rounded down.
 */
export function solvesAllowed(player: CheckPlayer, seeds: number): { least: number; most: number } {
  if (player.runner === "solution") return { least: seeds, most: seeds };
  return { least: 0, most: Math.floor(seeds / 10) };
}

/** The three verdicts on a scenario's players, in the order the report lists them. */
export function judgeChecks(players: readonly PlayerResult[], seeds: number): CheckVerdict[] {
  return [deterministic(players), solutionSolves(players, seeds), baselinesRarelySolve(players, seeds)];
}

function deterministic(players: readonly PlayerResult[]): CheckVerdict {
  const differing = players.filter((p) => p.differing_seeds.length > 0);
  if (differing.length === 0) {
    return {
      check: "deterministic",
      passed: true,
      detail: "every seed gave the same log hash each time it was played",
    };
  }
  const first = differing[0]!.first_difference!;
  const cases = differing.map((p) => `${playerName(p)} on seeds ${seedList(p.differing_seeds)}`).join("; ");
  return {
    check: "deterministic",
    passed: false,
    detail: `plays of the same seed gave different log hashes: ${cases} (${playerName(differing[0]!)} seed ${first.seed}: ${first.hashes.join(" then ")})`,
  };
}

function solutionSolves(players: readonly PlayerResult[], seeds: number): CheckVerdict {
  const team = players.find((p) => p.runner === "solution" && p.agent === null);
  if (!team) throw new Error("a check plays the solution team");
  const missed = seeds - team.solved_seeds.length;
  if (missed === 0) {
    return { check: "solution_solves", passed: true, detail: `the solution team solved all ${seeds} seeds` };
  }
  const solved = new Set(team.solved_seeds);
  const unsolved = Array.from({ length: seeds }, (_, i) => i + 1).filter((s) => !solved.has(s));
  const why = team.first_unsolved!;
  return {
    check: "solution_solves",
    passed: false,
    detail: `the solution team did not solve ${missed} of ${seeds} seeds: ${seedList(unsolved)} (seed ${why.seed}: ${why.reason})`,
  };
}

function baselinesRarelySolve(players: readonly PlayerResult[], seeds: number): CheckVerdict {
  const judged = players.filter((p) => p.runner !== "solution");
  const most = solvesAllowed({ runner: "noop", agent: null }, seeds).most;
  const allowed = `(allowed: ${most}, 10 %)`;
  const tooOften = judged.filter((p) => p.solved_seeds.length > most);
  if (tooOften.length === 0) {
    const best = Math.max(0, ...judged.map((p) => p.solved_seeds.length));
    return {
      check: "baselines_rarely_solve",
      passed: true,
      detail: `the most noop, random or greedy solved as any one agent is ${best} of ${seeds} seeds ${allowed}`,
    };
  }
  const cases = tooOften.map((p) => `${playerName(p)} solved ${p.solved_seeds.length} of ${seeds} seeds`);
  return { check: "baselines_rarely_solve", passed: false, detail: `${cases.join(", ")} ${allowed}` };
}

/** "the solution team", or "noop courier-1". */
export function playerName(player: CheckPlayer): string {
  return player.agent === null ? `the ${player.runner} team` : `${player.runner} ${player.agent}`;
}

/** Seeds as a short list: "4, 9, 17", or the first few and how many more. */
function seedList(seeds: readonly number[]): string {
  const shown = seeds.slice(0, SEEDS_LISTED).join(", ");
  return seeds.length > SEEDS_LISTED ? `${shown} and ${seeds.length - SEEDS_LISTED} more` : shown;
}
