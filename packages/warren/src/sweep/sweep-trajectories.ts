import { existsSync } from "node:fs";
import { join } from "node:path";
import { TrajectoryError } from "../trajectory/trajectory-error.js";
import { checkWritableFolder } from "../trajectory/trajectory-file.js";
import type { RunSpec } from "./sweep-plan.js";

/**
 * A run's trajectory file in a sweep's --trajectories folder: SCENARIO.MIX.SEED.TRIAL.jsonl. The
 * names cannot collide, since scenario and mix names have no dot, and the trial is always there.
 */
export function trajectoryFileName(spec: Pick<RunSpec, "scenario" | "mix" | "seed" | "trial">): string {
  return `${spec.scenario}.${spec.mix.name}.${spec.seed}.${spec.trial}.jsonl`;
}

/**
 * A queue's runs are played on other machines, whose files would stay there: a sweep writes
 * trajectories only where it plays its runs itself.
 */
export function queueRefusal(): TrajectoryError {
  return new TrajectoryError(
    "trajectories_need_local_pool",
    "--trajectories writes each run's file where it is played, so it cannot go with --queue; sweep without --queue to have them",
  );
}

/**
 * The runs to play, each told where its trajectory goes, once the folder is known to take files
 * (throws trajectory_unwritable otherwise, before anything is played). Runs recorded by an
 * earlier start without --trajectories have none: `say` tells how many.
 */
export function planTrajectories(
  dir: string,
  toPlay: readonly RunSpec[],
  recorded: readonly RunSpec[],
  say: (line: string) => void,
): RunSpec[] {
  checkWritableFolder(dir);
  const without = recorded.filter((spec) => !existsSync(join(dir, trajectoryFileName(spec)))).length;
  if (without > 0) {
    say(
      `${without} of the runs already recorded have no trajectory in ${dir} (recorded without --trajectories); sweep into a new --out to have them\n`,
    );
  }
  return toPlay.map((spec) => ({ ...spec, trajectoryFile: join(dir, trajectoryFileName(spec)) }));
}
