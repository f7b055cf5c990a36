import { RoostError } from "../../protocol/index.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { removeJobFolder } from "../jobs/job-folders.js";
import type { OpHandler } from "./context.js";

export const dispatch: OpHandler<"dispatch"> = ({ dispatcher }, _caller, args) => dispatcher.dispatch(args);

/** The job the request named, as it stands after an await: removed meanwhile is `not_found`. */
function current(state: DaemonState, job: Job): Job {
  if (state.jobs.get(job.id) !== job) throw new RoostError("not_found", `job ${job.id} was removed`);
  return job;
}

export const stop: OpHandler<"stop"> = async ({ state, supervisor }, _caller, args) => {
  const job = state.resolve(args.id);
  if (!state.host) await state.waitForHost();
  state.requireHost();
  // Kept first: a store that cannot write refuses the stop before the process is ended.
  await state.save(current(state, job));
  await supervisor.stop(current(state, job));
  return { id: job.id };
};

export const respawn: OpHandler<"respawn"> = async ({ state, supervisor, worktrees }, _caller, args) => {
  const job = state.resolve(args.id);
  // A worktree the person deleted is said, never made again.
  worktrees.requirePresent(job);
  if (!state.host) await state.waitForHost();
  state.requireHost();
  await state.save(current(state, job));
  await supervisor.respawn(current(state, job));
  return { id: job.id };
};

export const rm: OpHandler<"rm"> = async ({ state, supervisor, worktrees }, _caller, args) => {
  const job: Job = current(state, state.resolve(args.id));
  // Work in its worktree is not lost by a removal the person did not force.
  await worktrees.checkRemoval(job, args.force === true);
  current(state, job);
  // Out of the table first: its exit, screens and replies from now on find no job to act for. Kept
  // before anything else: a store that cannot write refuses the removal, the job back as it was.
  state.jobs.delete(job.id);
  try {
    await state.store.deleteJob(job.id);
  } catch (err) {
    state.jobs.set(job.id, job);
    throw err;
  }
  state.removed(job.id);
  // The folder goes only once the host has let go of the job: its log is closed, its process reaped.
  await supervisor.remove(job);
  const worktree = await worktrees.release(job, args.deleteBranch === true);
  removeJobFolder(job.dir);
  return { id: job.id, ...worktree };
};
