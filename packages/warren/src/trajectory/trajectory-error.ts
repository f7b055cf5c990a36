/**
 * Why a trajectory cannot be written or read: trajectory_unwritable (its file or folder cannot be
 * written, said before any run is played), invalid_trajectory (a file that is not one, naming the
 * line), trajectories_need_local_pool (a sweep on a queue: its runs' files would be written on
 * other machines).
 */
export type TrajectoryErrorCode =
  | "trajectory_unwritable"
  | "invalid_trajectory"
  | "trajectories_need_local_pool";

export class TrajectoryError extends Error {
  constructor(
    readonly code: TrajectoryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TrajectoryError";
  }
}
