/**
 * warren-sim: the engine and the bundled scenarios.
 *
 *   import { createRun, listScenarios } from "warren-sim";
 *   const run = createRun({ runId: "run-1", scenario: "bridge_repair", seed: 3, controlledAgents: ["engineer-1"] });
 */
export * from "./engine/index.js";
export {
  type CreateRunOptions,
  createRun,
  findScenario,
  listScenarios,
  SCENARIOS,
} from "./scenarios/index.js";
