import type { OpHandler } from "./context.js";

/** `events {after?, limit?, id?}`: the feed, for the hub, the CLI and the concierge. */
export const events: OpHandler<"events"> = ({ jobs, feed }, _caller, args) => {
  const after = args.after ?? undefined;
  const limit = args.limit ?? undefined;
  let jobId: string | undefined;
  if (args.id !== undefined && args.id !== null) {
    // A removed job's id still names its events; a name is looked up among the jobs there are.
    jobId =
      jobs.get(args.id) !== undefined || !jobs.all().some((j) => j.name === args.id)
        ? args.id
        : jobs.resolve(args.id).id;
  }
  return feed.read({ after, limit, jobId });
};
