import type { ScenarioDefinition } from "./scenario.js";
import { Simulation } from "./simulation.js";

/** Solution times already measured, by scenario and seed; cheap to keep, cheaper than re-running. */
const measured = new Map<string, number | null>();
const MAX_REMEMBERED = 10_000;

/**
 * The sim time the scenario's solution team takes on a seed (null if it does not complete):
 * the yardstick for a run's time_ratio. Runs the simulation in process, without a Run around it.
 */
export function solutionSimTime(scenario: ScenarioDefinition, seed: number): number | null {
  const key = `${scenario.name}#${seed}`;
  if (measured.has(key)) return measured.get(key)!;
  const sim = new Simulation(scenario, seed, () => {});
  const runners = new Map(scenario.agents.map((a) => [a.id, scenario.solution(a.id)]));
  sim.start();
  while (!sim.ended) {
    for (const wake of sim.step())
      sim.answer(wake.agentId, runners.get(wake.agentId)!.decide(wake.observation));
    if (sim.batchSize > 0) sim.resolve();
  }
  const time = sim.status === "completed" ? sim.now : null;
  if (measured.size >= MAX_REMEMBERED) measured.clear();
  measured.set(key, time);
  return time;
}
