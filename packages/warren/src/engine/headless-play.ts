import { Run } from "./run.js";
import type { ScenarioDefinition } from "./scenario.js";
import type { AffordanceMode, NpcPolicies, RunSummary } from "./types.js";

/**
 * Plays one run of a scenario with no remote agent to its end, in process and as fast as its
 * players answer: every agent on its solution runner or the baseline `npcPolicy` names for it.
 */
export function playHeadless(
  scenario: ScenarioDefinition,
  seed: number,
  npcPolicy: NpcPolicies = "solution",
  affordances: AffordanceMode = "ready",
): Promise<RunSummary> {
  const run = new Run({ runId: `${scenario.name}-${seed}`, scenario, seed, npcPolicy, affordances });
  run.start();
  return run.whenEnded();
}
