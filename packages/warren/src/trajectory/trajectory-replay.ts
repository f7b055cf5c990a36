import { decisionOf, Run, type RunSummary } from "../engine/index.js";
import type { TrajectoryStep } from "../protocol/index.js";
import { findScenario } from "../scenarios/index.js";
import { stepDifferences } from "./step-differences.js";
import { TrajectoryError } from "./trajectory-error.js";
import type { Trajectory } from "./trajectory-reader.js";
import { TrajectoryRecorder } from "./trajectory-recorder.js";
import { warrenVersion } from "./warren-version.js";

/** Where a replay first parts from its trajectory. */
export interface Divergence {
  /** The file's line: a step's, or 1 (the header's result) when only the end differs. */
  line: number;
  /** The line's decision, or the header's result, in words. */
  where: string;
  differences: string[];
}

export interface TrajectoryReplay {
  summary: RunSummary;
  /** Absent when every step and the end matched. */
  divergence?: Divergence;
}

/**
 * Plays the header's scenario, seed and trial again with every agent's recorded command, and
 * checks each decision against its step (what the agent saw, how the world answered, the log hash
 * so far) and the end against the header's result. Throws invalid_trajectory for a scenario this
 * warren does not have.
 */
export async function replayTrajectory({ header, steps }: Trajectory): Promise<TrajectoryReplay> {
  const scenario = findScenario(header.scenario);
  if (!scenario) {
    throw new TrajectoryError(
      "invalid_trajectory",
      `the header names an unknown scenario "${header.scenario}"`,
    );
  }
  const run = new Run({
    runId: `${header.scenario}-${header.seed}`,
    scenario,
    seed: header.seed,
    trial: header.trial,
    affordances: header.affordances,
    pace: null,
    replay: new Map(
      steps.map((step) => [
        step.observation_id,
        { decision: decisionOf(step.command), expired: step.expired },
      ]),
    ),
  });
  let next = 0;
  let divergence: Divergence | undefined;
  new TrajectoryRecorder(run, (replayed) => {
    const at = next++;
    const recorded = steps[at];
    if (divergence || !recorded) return;
    const differences = stepDifferences(recorded, replayed);
    if (differences.length > 0) divergence = { line: at + 2, where: stepWords(recorded), differences };
  });
  run.start();
  const summary = await run.whenEnded();
  const recorded = steps[next];
  if (!divergence && recorded) {
    const why = summary.status_reason ? ` (${summary.status_reason})` : "";
    divergence = {
      line: next + 2,
      where: stepWords(recorded),
      differences: [`the replay ended ${summary.status}${why} before this decision`],
    };
  }
  divergence ??= endDivergence(header.result, summary);
  if (divergence && header.warren_version !== warrenVersion()) {
    divergence.differences.push(
      `the trajectory was recorded by warren ${header.warren_version}, replayed by ${warrenVersion()}`,
    );
  }
  return divergence ? { summary, divergence } : { summary };
}

function stepWords(step: TrajectoryStep): string {
  return `${step.agent} step ${step.step} (${step.observation_id}) at t=${step.sim_time_ms / 1000}s`;
}

function endDivergence(
  recorded: Trajectory["header"]["result"],
  replayed: RunSummary,
): Divergence | undefined {
  const differences: string[] = [];
  if (recorded.status !== replayed.status) {
    differences.push(`the run ended ${replayed.status} (${replayed.status_reason}), not ${recorded.status}`);
  }
  if (recorded.log_hash !== replayed.log_hash) {
    differences.push(`the final log hash is ${replayed.log_hash}, not ${recorded.log_hash}`);
  }
  return differences.length > 0 ? { line: 1, where: "the header's result", differences } : undefined;
}
