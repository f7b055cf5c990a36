import type { ScenarioDefinition } from "./scenario.js";
import { Simulation } from "./simulation.js";

/** Solution times already measured, per scenario (the definition itself) and seed. */
const measured = new WeakMap<ScenarioDefinition, Map<number, number | null>>();
const MAX_SEEDS_REMEMBERED = 10_000;
/** Batches a yardstick run may take before it is given up on (a runner stuck in one millisecond). */
const MAX_BATCHES = 1_000_000;

/**
 * The sim time the scenario's solution team takes on a seed: the yardstick for a run's
 * time_ratio. Null if the team does not complete, or its runners cannot play the scenario (a test
 * world). Runs the simulation in process, without a Run around it.
 */
export function solutionSimTime(scenario: ScenarioDefinition, seed: number): number | null {
  const known = measured.get(scenario);
  if (known?.has(seed)) return known.get(seed)!;
  const time = measure(scenario, seed);
  rememberSolutionSimTime(scenario, seed, time);
  return time;
}

/** Records the solution team's time on a seed, measured by a run the team played itself. */
export function rememberSolutionSimTime(
  scenario: ScenarioDefinition,
  seed: number,
  time: number | null,
): void {
  let bySeed = measured.get(scenario);
  if (!bySeed) measured.set(scenario, (bySeed = new Map()));
  if (bySeed.size >= MAX_SEEDS_REMEMBERED) bySeed.clear();
  bySeed.set(seed, time);
}

function measure(scenario: ScenarioDefinition, seed: number): number | null {
  try {
    const sim = new Simulation(scenario, seed, () => {});
    const runners = new Map(scenario.agents.map((a) => [a.id, scenario.solution(a.id)]));
    sim.start();
    for (let batches = 0; !sim.ended; batches++) {
      if (batches >= MAX_BATCHES) return null;
      for (const wake of sim.step())
        sim.answer(wake.agentId, runners.get(wake.agentId)!.decide(wake.observation));
      if (sim.batchSize > 0) sim.resolve();
    }
    return sim.status === "completed" ? sim.now : null;
  } catch {
    return null;
  }
}
