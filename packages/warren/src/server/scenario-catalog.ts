import { listScenarios } from "../engine/index.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import type { ScenarioInfo } from "../engine/types.js";
import { findScenario } from "../scenarios/index.js";

/** Where the server finds scenarios by name; tests and benches bring their own. */
export interface ScenarioCatalog {
  find(name: string): ScenarioDefinition | undefined;
  list(): ScenarioInfo[];
}

export const bundledScenarios: ScenarioCatalog = { find: findScenario, list: listScenarios };
