import type { ScenarioDefinition } from "../engine/scenario.js";
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
