import { LIMITS, RoostError } from "../../protocol/index.js";
import type { OpHandler } from "./context.js";

function optionalCount(
  args: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max)
    throw new RoostError("bad_request", `${field} must be an integer from ${min} to ${max}`);
  return v;
}

/**
 * `events {after?, limit?, id?}`: the feed, for the hub and the CLI. A session's connection is
 * refused, the concierge's excepted (it watches the fleet).
 */
export const events: OpHandler = ({ state, feed, concierge }, caller, args) => {
  if (caller.role === "session" && !concierge.speaker(caller))
    throw new RoostError("unsupported", "events is for the hub and the CLI, not a session's connection");
  const after = optionalCount(args, "after", 0, Number.MAX_SAFE_INTEGER);
  const limit = optionalCount(args, "limit", 1, LIMITS.eventsKept);
  let jobId: string | undefined;
  if (args.id !== undefined && args.id !== null) {
    if (typeof args.id !== "string" || args.id === "")
      throw new RoostError("bad_request", "id must be a job id or name");
    // A removed job's id still names its events; a name is looked up among the jobs there are.
    jobId =
      state.jobs.has(args.id) || ![...state.jobs.values()].some((j) => j.name === args.id)
        ? args.id
        : state.resolve(args.id).id;
  }
  return feed.read({ after, limit, jobId });
};
