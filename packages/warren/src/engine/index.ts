/**
 * warren's engine, as the server and the CLI use it.
 *
 *   const run = createRun({ runId: "run-1", scenario: "bridge_repair", seed: 3,
 *                           controlledAgents: ["engineer-1"], npcPolicy: "solution", pace: null });
 *   run.start();
 *   run.briefing("engineer-1");                       // GET …/briefing
 *   await run.nextObservation("engineer-1", -1, 25000); // GET …/observations?after=-1&wait=25
 *   run.submit("engineer-1", body);                   // POST …/commands → Receipt
 *   run.receipt("engineer-1", "c-7d21");              // GET …/commands/c-7d21
 *   run.summary(); run.events(since); run.onEvent(fn); run.onEnd(fn)
 */
import { findScenario, SCENARIOS } from "../scenarios/index.js";
import { RunError } from "./errors.js";
import { Run, type RunOptions } from "./run.js";
import type { ScenarioInfo } from "./types.js";

export { type Clock, ManualClock, realClock } from "./clock.js";
export { MAX_SLEEP_MS } from "./command-payload.js";
export { RunError, type RunErrorCode } from "./errors.js";
export {
  DEFAULT_DECISION_TIMEOUT_MS,
  decisionFields,
  decisionsFromEvents,
  Run,
  type RunOptions,
} from "./run.js";
export type { ScenarioDefinition, SolutionRunner } from "./scenario.js";
export { IDLE_WAKE_MS } from "./simulation.js";
export * from "./types.js";

export interface CreateRunOptions extends Omit<RunOptions, "scenario"> {
  /** A scenario's name, as `listScenarios()` gives it. */
  scenario: string;
}

/** Creates a run (status "created"); call `start()` to set it going. Throws RunError on bad options. */
export function createRun(options: CreateRunOptions): Run {
  const scenario = findScenario(options.scenario);
  if (!scenario) {
    throw new RunError(
      "unknown_scenario",
      `there is no scenario "${options.scenario}"; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}`,
    );
  }
  return new Run({ ...options, scenario });
}

/** Every bundled scenario, described. */
export function listScenarios(): ScenarioInfo[] {
  return SCENARIOS.map((s) => ({
    name: s.name,
    title: s.title,
    premise: s.premise,
    summary: s.summary,
    agents: s.agents.map((a) => ({ agent_id: a.id, name: a.name, role: a.role })),
    objectives: s.objectives.map((o) => ({
      id: o.id,
      description: o.description,
      deadline_ms: o.deadlineMs,
      target: o.target,
    })),
    time_limit_ms: s.timeLimitMs,
  }));
}
