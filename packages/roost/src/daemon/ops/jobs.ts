import type { OpHandler } from "./context.js";

export const dispatch: OpHandler<"dispatch"> = ({ dispatcher }, _caller, args) => dispatcher.dispatch(args);
export const stop: OpHandler<"stop"> = ({ jobs }, _caller, args) => jobs.stop(args.id);
export const respawn: OpHandler<"respawn"> = ({ jobs }, _caller, args) =>
  jobs.respawn(args.id, args.fresh === true);
export const rm: OpHandler<"rm"> = ({ jobs }, _caller, args) =>
  jobs.rm(args.id, args.force === true, args.deleteBranch === true);
