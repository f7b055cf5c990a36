import { describeScenario, type ScenarioDefinition } from "../engine/scenario.js";
import type { ScenarioInfo } from "../engine/types.js";
import { SCENARIOS } from "../scenarios/index.js";

/** Where the server finds scenarios by name; tests and benches bring their own. */
export interface ScenarioCatalog {
  find(name: string): ScenarioDefinition | undefined;
  list(): ScenarioInfo[];
}

/** A catalogue of these scenarios. */
export function catalogOf(scenarios: readonly ScenarioDefinition[]): ScenarioCatalog {
  return {
    find: (name) => scenarios.find((s) => s.name === name),
    list: () => scenarios.map(describeScenario),
  };
}

export const bundledScenarios: ScenarioCatalog = catalogOf(SCENARIOS);
