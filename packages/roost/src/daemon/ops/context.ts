import type { Caller } from "../caller.js";
import type { DaemonState } from "../state.js";
import type { Supervisor } from "../supervisor.js";

/** What every op works with. */
export interface OpContext {
  state: DaemonState;
  supervisor: Supervisor;
}

/** An op: a function of (state, caller, args); the server routes requests to it. */
export type OpHandler = (ctx: OpContext, caller: Caller, args: Record<string, unknown>) => unknown;
