import { findScenario, unknownScenario } from "../scenarios/index.js";
import { type AgentMix, castMix } from "./agent-mix.js";
import { MAX_SWEEP_SEEDS } from "./seed-range.js";

/** The most trials of each (scenario, mix, seed) a sweep plays. */
export const MAX_TRIALS = 1000;

/** One run of a sweep: what a worker, local or on the queue, needs to play it. */
export interface RunSpec {
  /** scenario/mix/seed, then #trial past the first: the run's identity in records, on the queue and when resuming. */
  key: string;
  scenario: string;
  seed: number;
  /** Which play of this (scenario, mix, seed) it is, from 0. */
  trial: number;
  mix: AgentMix;
  /** Where the run's trajectory is written, if anywhere (`--trajectories`): by the process that plays it. */
  trajectoryFile?: string;
}

/** Trial 0 keeps the key runs had before there were trials, so older sweep folders resume. */
export function runKey(scenario: string, mix: string, seed: number, trial = 0): string {
  return `${scenario}/${mix}/${seed}${trial === 0 ? "" : `#${trial}`}`;
}

/**
 * Every (scenario, mix, seed, trial) of a sweep, scenario by scenario, then mix, then seed, then
 * trial. A mix limited to some scenarios is left out of the others. Throws naming an unknown
 * scenario or a mix that does not fit one, or when a scenario and mix would have more than a
 * million runs.
 */
export function planRuns(
  scenarios: readonly string[],
  seeds: readonly number[],
  mixes: readonly AgentMix[],
  trials = 1,
): RunSpec[] {
  if (seeds.length * trials > MAX_SWEEP_SEEDS) {
    throw new Error(
      `${seeds.length} seeds of ${trials} trials each is more than the ${MAX_SWEEP_SEEDS} runs a sweep plays of a scenario and mix`,
    );
  }
  const specs: RunSpec[] = [];
  for (const mix of mixes) {
    for (const name of mix.scenarios ?? []) {
      if (!findScenario(name)) throw new Error(`mix "${mix.name}" names an unknown scenario "${name}"`);
    }
  }
  for (const name of new Set(scenarios)) {
    const scenario = findScenario(name);
    if (!scenario) throw unknownScenario(name);
    const applicable = mixes.filter((m) => m.scenarios === undefined || m.scenarios.includes(name));
    for (const mix of applicable) {
      castMix(
        mix,
        name,
        scenario.agents.map((a) => a.id),
      );
      for (const seed of seeds) {
        for (let trial = 0; trial < trials; trial++) {
          specs.push({ key: runKey(name, mix.name, seed, trial), scenario: name, seed, trial, mix });
        }
      }
    }
  }
  if (specs.length === 0)
    throw new Error("no mix applies to the scenarios named, so there is nothing to run");
  return specs;
}
