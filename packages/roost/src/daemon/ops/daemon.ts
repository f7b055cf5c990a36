import { DAEMON_VERSION } from "../../protocol/index.js";
import type { OpHandler } from "./context.js";

/**
 * Answered once the daemon has let go of its jobs (with `all`: once they and the process host have
 * ended); the daemon closes every connection and exits just after.
 */
export const shutdown: OpHandler<"shutdown"> = async ({ state }, _caller, args) => {
  await state.requestShutdown(args.all ?? false);
  return {};
};

export const stats: OpHandler<"stats"> = ({ state }, caller) => ({
  pid: process.pid,
  version: DAEMON_VERSION,
  connections: state.callers.size,
  jobs: state.jobs.size,
  rss: process.memoryUsage.rss(),
  inFlightPeak: caller.inFlightPeak,
  hostPid: state.host?.hostPid ?? null,
});
