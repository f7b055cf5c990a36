import { findScenario, SCENARIOS } from "../scenarios/index.js";
import { type AgentMix, castMix } from "./agent-mix.js";

/** One run of a sweep: what a worker, local or on the queue, needs to play it. */
export interface RunSpec {
  /** scenario/mix/seed: the run's identity in records, on the queue and when resuming. */
  key: string;
  scenario: string;
  seed: number;
  mix: AgentMix;
}

export function runKey(scenario: string, mix: string, seed: number): string {
  return `${scenario}/${mix}/${seed}`;
}

/**
 * Every (scenario, mix, seed) of a sweep, scenario by scenario, then mix, then seed. A mix limited
 * to some scenarios is left out of the others. Throws naming an unknown scenario or a mix that
 * does not fit one.
 */
export function planRuns(
  scenarios: readonly string[],
  seeds: readonly number[],
  mixes: readonly AgentMix[],
): RunSpec[] {
  const specs: RunSpec[] = [];
  for (const mix of mixes) {
    for (const name of mix.scenarios ?? []) {
      if (!findScenario(name)) throw new Error(`mix "${mix.name}" names an unknown scenario "${name}"`);
    }
  }
  for (const name of new Set(scenarios)) {
    const scenario = findScenario(name);
    if (!scenario) {
      throw new Error(
        `there is no scenario "${name}"; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}`,
      );
    }
    const applicable = mixes.filter((m) => m.scenarios === undefined || m.scenarios.includes(name));
    for (const mix of applicable) {
      castMix(
        mix,
        name,
        scenario.agents.map((a) => a.id),
      );
      for (const seed of seeds) specs.push({ key: runKey(name, mix.name, seed), scenario: name, seed, mix });
    }
  }
  if (specs.length === 0)
    throw new Error("no mix applies to the scenarios named, so there is nothing to run");
  return specs;
}
