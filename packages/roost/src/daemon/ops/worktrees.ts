import type { OpHandler } from "./context.js";

export const diff: OpHandler<"diff"> = ({ jobs, worktrees }, _caller, args) =>
  worktrees.diff(jobs.resolve(args.id), args.stat === true);

export const merge: OpHandler<"merge"> = ({ jobs, worktrees }, _caller, args) =>
  worktrees.merge(jobs.resolve(args.id), args);

export const branches: OpHandler<"branches"> = async ({ worktrees }, _caller, args) => ({
  branches: await worktrees.branches(args.cwd ?? null),
});
