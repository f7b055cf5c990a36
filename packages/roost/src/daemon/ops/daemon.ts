import { DAEMON_VERSION, type StatsResult } from "../../protocol/index.js";
import { optionalBoolean } from "./args.js";
import type { OpHandler } from "./context.js";

/** The daemon exits after answering; with `all` its jobs and the process host end too. */
export const shutdown: OpHandler = ({ state }, caller, args) => {
  const all = optionalBoolean(args, "all") ?? false;
  caller.later(() => state.requestShutdown(all));
  return {};
};

export const stats: OpHandler = ({ state }, caller): StatsResult => ({
  pid: process.pid,
  version: DAEMON_VERSION,
  connections: state.callers.size,
  jobs: state.jobs.size,
  rss: process.memoryUsage.rss(),
  inFlightPeak: caller.inFlightPeak,
});
