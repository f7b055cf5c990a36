import { type CommandPayload, playAgent, type Usage, type WarrenClient } from "../../src/client/index.js";
import { decisionFields } from "../../src/engine/index.js";
import { findScenario } from "../../src/scenarios/index.js";

export interface MeteredPlay {
  /** Answers every observation with a noop instead of the runner's decision. */
  idle?: boolean;
  /** Sent first, before the runner's first decision: a try the server refuses, say. */
  firstTry?: CommandPayload;
}

/**
 * Plays one agent of a run over HTTP as a model-driven client would, its scenario's solution
 * runner deciding, every decision (each try) reporting `usage`; resolves with the run's status.
 */
export function playWithUsage(
  warren: WarrenClient,
  runId: string,
  agentId: string,
  scenario: string,
  usage: Usage,
  options: MeteredPlay = {},
): Promise<string> {
  const runner = findScenario(scenario)!.solution(agentId);
  let firstTry = options.firstTry;
  return playAgent(warren.agent(runId, agentId, { holder: "metered" }), ({ envelope }) => {
    const tried = firstTry;
    firstTry = undefined;
    const payload =
      tried ?? (options.idle ? { noop: true } : decisionFields(runner.decide(envelope.observation)));
    return { ...(payload as CommandPayload), usage };
  });
}
