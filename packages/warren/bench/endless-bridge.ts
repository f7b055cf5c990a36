import type { ScenarioDefinition } from "../src/engine/index.js";
import { bridgeRepair } from "../src/scenarios/bridge_repair/scenario.js";

/** bridge_repair without its time limit or deadlines, so a bench can answer thousands of wakes. */
export const endlessBridge: ScenarioDefinition = {
  ...bridgeRepair,
  name: "endless_bridge",
  timeLimitMs: 1e12,
  objectives: bridgeRepair.objectives.map((o) => ({ ...o, deadlineMs: null })),
};
