import type { TaskBoard } from "../board/task-board.js";
import type { Caller } from "../caller.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { PeerService } from "../peers/peer-service.js";
import type { Scheduler } from "../schedules/scheduler.js";

/** What every op works with. */
export interface OpContext {
  state: DaemonState;
  supervisor: Supervisor;
  feed: EventsFeed;
  board: TaskBoard;
  schedules: Scheduler;
  peers: PeerService;
}

/** An op: a function of (state, caller, args); the server routes requests to it. */
export type OpHandler = (ctx: OpContext, caller: Caller, args: Record<string, unknown>) => unknown;
