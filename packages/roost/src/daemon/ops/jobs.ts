import { resumeInterrupted } from "../jobs/resume-interrupted.js";
import type { OpHandler } from "./context.js";

export const dispatch: OpHandler<"dispatch"> = ({ dispatcher }, _caller, args) => dispatcher.dispatch(args);
export const profiles: OpHandler<"profiles"> = ({ dispatcher }) => ({ profiles: dispatcher.profileNames() });
export const stop: OpHandler<"stop"> = ({ jobs }, _caller, args) => jobs.stop(args.id);
export const respawn: OpHandler<"respawn"> = ({ jobs }, _caller, args) =>
  jobs.respawn(args.id, args.fresh === true);
export const resume: OpHandler<"resume"> = ({ jobs }, _caller, args) => resumeInterrupted(jobs, args);
export const rm: OpHandler<"rm"> = ({ jobs }, _caller, args) =>
  jobs.rm(args.id, args.force === true, args.deleteBranch === true);

/** Makes a job of what the store does not know, as the person asks (`roost adopt`). */
export const adopt: OpHandler<"adopt"> = async ({ dispatcher, feed }, _caller, args) => {
  const adopted = await dispatcher.adopt(args);
  feed.add({
    kind: "job",
    why: "adopt",
    text: `${adopted.name}: adopted (${adopted.lifecycle})`,
    who: "user",
    whoId: null,
    jobs: [adopted.id],
  });
  return adopted;
};
