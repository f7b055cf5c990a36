import { RunError } from "../engine/errors.js";
import { Run, type RunOptions } from "../engine/run.js";
import { describeScenario, type ScenarioDefinition } from "../engine/scenario.js";
import type { ScenarioInfo } from "../engine/types.js";
import { bridgeRepair } from "./bridge_repair/scenario.js";
import { damRelease } from "./dam_release/scenario.js";
import { fogSearch } from "./fog_search/scenario.js";
import { harvestRush } from "./harvest_rush/scenario.js";
import { parcelDispatch } from "./parcel_dispatch/scenario.js";
import { signalRelay } from "./signal_relay/scenario.js";

/** Every bundled scenario, in the order `warren scenarios` lists them. */
export const SCENARIOS: readonly ScenarioDefinition[] = [
  bridgeRepair,
  signalRelay,
  harvestRush,
  parcelDispatch,
  fogSearch,
  damRelease,
];

export function findScenario(name: string): ScenarioDefinition | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** Every bundled scenario, described. */
export function listScenarios(): ScenarioInfo[] {
  return SCENARIOS.map(describeScenario);
}

export interface CreateRunOptions extends Omit<RunOptions, "scenario"> {
  /** A bundled scenario's name, as `listScenarios()` gives it. */
  scenario: string;
}

/** The error for a name no bundled scenario has: it lists those there are. */
export function unknownScenario(name: string): RunError {
  return new RunError(
    "unknown_scenario",
    `there is no scenario "${name}"; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}`,
  );
}

/** A run of a bundled scenario (status "created"; `start()` sets it going). Throws RunError on bad options. */
export function createRun(options: CreateRunOptions): Run {
  const scenario = findScenario(options.scenario);
  if (!scenario) throw unknownScenario(options.scenario);
  return new Run({ ...options, scenario });
}
