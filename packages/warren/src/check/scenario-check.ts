import { playHeadless } from "../engine/headless-play.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import type { NpcPolicies } from "../engine/types.js";
import { type CheckPlayer, type CheckReport, judgeChecks, type PlayerResult } from "./check-report.js";

/** Seeds a check plays unless told: about a second of plays for any bundled scenario. */
export const DEFAULT_CHECK_SEEDS = 20;
/** The most seeds a check may play: some 20 s for the longest bundled scenario, a typo like 10000 refused. */
export const MAX_CHECK_SEEDS = 1000;
/** Each seed is played this often by each player; the log hashes must agree. */
export const PLAYS_PER_SEED = 2;

/** The players a check plays, in the order its table lists them. */
export function checkPlayers(agents: readonly string[]): CheckPlayer[] {
  return [
    { runner: "solution", agent: null },
    ...(["noop", "random", "greedy"] as const).flatMap((runner) =>
      agents.map((agent) => ({ runner, agent })),
    ),
  ];
}

/**
 * Plays `scenario` on seeds 1 to `seeds` for each of its check's players, twice a seed, in process,
 * and judges it. `onPlayer` hears of each player as it finishes.
 */
export async function checkScenario(
  scenario: ScenarioDefinition,
  seeds: number,
  onPlayer: (result: PlayerResult, done: number, of: number) => void = () => {},
): Promise<CheckReport> {
  const players = checkPlayers(scenario.agents.map((a) => a.id));
  const results: PlayerResult[] = [];
  for (const player of players) {
    results.push(await playSeeds(scenario, player, seeds));
    onPlayer(results.at(-1)!, results.length, players.length);
  }
  const checks = judgeChecks(results, seeds);
  return {
    scenario: scenario.name,
    seeds,
    plays_per_seed: PLAYS_PER_SEED,
    players: results,
    checks,
    passed: checks.every((c) => c.passed),
  };
}

async function playSeeds(
  scenario: ScenarioDefinition,
  player: CheckPlayer,
  seeds: number,
): Promise<PlayerResult> {
  const npcPolicy: NpcPolicies = player.agent === null ? player.runner : { [player.agent]: player.runner };
  const result: PlayerResult = {
    ...player,
    seeds,
    solved_seeds: [],
    first_unsolved: null,
    differing_seeds: [],
    first_difference: null,
  };
  for (let seed = 1; seed <= seeds; seed++) {
    const plays: Play[] = [];
    for (let i = 0; i < PLAYS_PER_SEED; i++) plays.push(await playOnce(scenario, seed, npcPolicy));
    const first = plays[0]!;
    if (first.status === "completed") result.solved_seeds.push(seed);
    else result.first_unsolved ??= { seed, reason: `${first.status}: ${first.reason}` };
    if (plays.some((p) => p.hash !== first.hash)) {
      result.differing_seeds.push(seed);
      result.first_difference ??= { seed, hashes: plays.map((p) => p.hash) };
    }
  }
  return result;
}

interface Play {
  status: string;
  reason: string;
  hash: string;
}

/** One play; a scenario that throws while a run is made counts as a crashed play, not a crashed check. */
async function playOnce(scenario: ScenarioDefinition, seed: number, npcPolicy: NpcPolicies): Promise<Play> {
  try {
    const summary = await playHeadless(scenario, seed, npcPolicy);
    return { status: summary.status, reason: summary.status_reason, hash: summary.log_hash };
  } catch (error) {
    return {
      status: "crashed",
      reason: `the run could not be made: ${(error as Error).message}`,
      hash: "none",
    };
  }
}
