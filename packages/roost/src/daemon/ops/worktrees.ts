import type { OpHandler } from "./context.js";

export const diff: OpHandler<"diff"> = ({ state, worktrees }, _caller, args) =>
  worktrees.diff(state.resolve(args.id), args.stat === true);

export const merge: OpHandler<"merge"> = ({ state, worktrees }, _caller, args) =>
  worktrees.merge(state.resolve(args.id), args);

export const branches: OpHandler<"branches"> = async ({ worktrees }, _caller, args) => ({
  branches: await worktrees.branches(args.cwd ?? null),
});
