import { DAEMON_VERSION, type StatsResult } from "../../protocol/index.js";
import { optionalBoolean } from "./args.js";
import type { OpHandler } from "./context.js";

/**
 * Answered once the daemon has let go of its jobs (with `all`: once they and the process host have
 * ended); the daemon closes every connection and exits just after.
 */
export const shutdown: OpHandler = async ({ state }, _caller, args) => {
  const all = optionalBoolean(args, "all") ?? false;
  await state.requestShutdown(all);
  return {};
};

export const stats: OpHandler = ({ state }, caller): StatsResult => ({
  pid: process.pid,
  version: DAEMON_VERSION,
  connections: state.callers.size,
  jobs: state.jobs.size,
  rss: process.memoryUsage.rss(),
  inFlightPeak: caller.inFlightPeak,
  hostPid: state.host?.hostPid ?? null,
});
