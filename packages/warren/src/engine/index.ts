/**
 * warren's engine, as the server and the CLI use it. It imports no scenario: each run is handed
 * its scenario's definition (src/scenarios/ holds the bundled ones).
 *
 *   const run = new Run({ runId: "run-1", scenario: bridgeRepair, seed: 3,
 *                         controlledAgents: ["engineer-1"], npcPolicy: "solution", pace: null });
 *   run.start();
 *   run.briefing("engineer-1");                       // GET …/briefing
 *   await run.nextObservation("engineer-1", -1, 25000); // GET …/observations?after=-1&wait=25
 *   run.submit("engineer-1", body);                   // POST …/commands → Receipt
 *   run.receipt("engineer-1", "c-7d21");              // GET …/commands/c-7d21
 *   run.summary(); run.events(since); run.onEvent(fn); run.onEnd(fn)
 */
export { BRIEFING_REVISION } from "./briefing.js";
export { type Clock, ManualClock, realClock } from "./clock.js";
export { MAX_SLEEP_MS } from "./command-payload.js";
export { RunError, type RunErrorCode } from "./errors.js";
export * from "./events.js";
export { playHeadless } from "./headless-play.js";
export {
  DEFAULT_DECISION_TIMEOUT_MS,
  DEFAULT_MAX_WALL_MS,
  DEFAULT_RETAINED_EVENTS,
  decisionFields,
  decisionOf,
  decisionsFromEvents,
  Run,
  type RunOptions,
} from "./run.js";
export { describeScenario, type ScenarioDefinition, type SolutionRunner } from "./scenario.js";
export { IDLE_WAKE_MS, type Resolution } from "./simulation.js";
export * from "./types.js";
