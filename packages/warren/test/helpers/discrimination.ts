import type { AffordanceMode, Decision, Envelope, NpcPolicy, RunSummary } from "../../src/engine/index.js";
import { ManualClock, playHeadless, Run } from "../../src/engine/index.js";
import { findScenario } from "../../src/scenarios/index.js";
import { playRemotely } from "./engine-runs.js";

/** A fresh player for one run: answers each envelope of its agent. */
export type PlayerFactory = () => (envelope: Envelope) => Decision;

/** One run with `agentId` played by a built-in policy or a scripted player, the others on their runners. */
export async function playOne(
  scenario: string,
  seed: number,
  agentId: string,
  how: NpcPolicy | PlayerFactory,
  affordances: AffordanceMode = "ready",
): Promise<RunSummary> {
  const definition = findScenario(scenario)!;
  if (typeof how === "string") return playHeadless(definition, seed, { [agentId]: how }, affordances);
  const run = new Run({
    runId: "d",
    scenario: definition,
    seed,
    controlledAgents: [agentId],
    affordances,
    clock: new ManualClock(),
  });
  playRemotely(run, [agentId], how());
  run.start();
  return run.whenEnded();
}

/** The seeds (of `seeds`) on which the run completes. */
export async function completedSeeds(
  scenario: string,
  agentId: string,
  how: NpcPolicy | PlayerFactory,
  seeds: readonly number[],
  affordances: AffordanceMode = "ready",
): Promise<{ completed: number[]; reasons: string[] }> {
  const completed: number[] = [];
  const reasons: string[] = [];
  for (const seed of seeds) {
    const summary = await playOne(scenario, seed, agentId, how, affordances);
    if (summary.status === "completed") completed.push(seed);
    else reasons.push(`seed ${seed}: ${summary.status_reason}`);
  }
  return { completed, reasons };
}

export const SEEDS_1_TO_20 = Array.from({ length: 20 }, (_, i) => i + 1);
