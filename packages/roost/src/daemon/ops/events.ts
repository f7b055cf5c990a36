import type { OpHandler } from "./context.js";

/** `events {after?, limit?, id?}`: the feed, for the hub, the CLI and the concierge. */
export const events: OpHandler<"events"> = ({ state, feed }, _caller, args) => {
  const after = args.after ?? undefined;
  const limit = args.limit ?? undefined;
  let jobId: string | undefined;
  if (args.id !== undefined && args.id !== null) {
    // A removed job's id still names its events; a name is looked up among the jobs there are.
    jobId =
      state.jobs.has(args.id) || ![...state.jobs.values()].some((j) => j.name === args.id)
        ? args.id
        : state.resolve(args.id).id;
  }
  return feed.read({ after, limit, jobId });
};
