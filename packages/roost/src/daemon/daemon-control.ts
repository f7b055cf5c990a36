import { DAEMON_VERSION, type OpResult } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import type { DaemonState } from "./jobs/daemon-state.js";

/** The daemon itself as the ops see it: how it is doing, and asking it to exit. */
export class DaemonControl {
  constructor(private readonly state: DaemonState) {}

  /** Resolves once the jobs are let go of (or ended, `all`); the connections close just after. */
  shutdown(all: boolean): Promise<void> {
    return this.state.requestShutdown(all);
  }

  stats(caller: Caller): OpResult<"stats"> {
    const { state } = this;
    return {
      pid: process.pid,
      version: DAEMON_VERSION,
      connections: state.callers.size,
      jobs: state.jobs.size,
      rss: process.memoryUsage.rss(),
      inFlightPeak: caller.inFlightPeak,
      hostPid: state.host?.hostPid ?? null,
    };
  }
}
