import type { Run, RunSummary } from "../engine/index.js";
import type { TrajectoryHeader } from "../protocol/index.js";
import { TrajectoryFile } from "./trajectory-file.js";
import { TrajectoryRecorder } from "./trajectory-recorder.js";

export interface TrajectoryRecording {
  /** Writes the file, header first, once the run has ended. */
  publish(ended: RunSummary): void;
}

/**
 * Records the run's trajectory into the file at `path`: call it before the run starts. Throws
 * trajectory_unwritable at once, before anything is played, when the file cannot be written.
 */
export function recordTrajectory(
  run: Run,
  path: string,
  sweep?: TrajectoryHeader["sweep"],
): TrajectoryRecording {
  const file = new TrajectoryFile(path);
  const recorder = new TrajectoryRecorder(run, (step) => file.add(step));
  return {
    publish: (ended) => file.publish(recorder.header(ended, sweep)),
  };
}
