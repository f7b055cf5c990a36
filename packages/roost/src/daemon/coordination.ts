import { TaskBoard } from "./board/task-board.js";
import type { Caller } from "./caller.js";
import { EventsFeed } from "./feed/events-feed.js";
import { JobEvents } from "./feed/job-events.js";
import type { DaemonState } from "./jobs/daemon-state.js";
import { isLive } from "./jobs/job.js";
import type { Supervisor } from "./jobs/supervisor.js";
import { dispatch } from "./ops/jobs.js";
import { PeerService } from "./peers/peer-service.js";
import { clockFromEnv } from "./schedules/clock.js";
import { Scheduler } from "./schedules/scheduler.js";
import type { Store } from "./store/store.js";

/** The daemon itself as a caller: what a schedule's run dispatches through. */
const daemonCaller: Caller = {
  connectionId: 0,
  role: "hub",
  jobId: null,
  hello: null,
  subscribed: false,
  inFlightPeak: 0,
  closed: false,
  send: () => {},
  later: (fn) => fn(),
};

export interface Coordination {
  feed: EventsFeed;
  board: TaskBoard;
  schedules: Scheduler;
  peers: PeerService;
}

/**
 * The feed, the task board and the schedules, on the store's database: the board hears of every
 * job's change and removal (to release what an ended job held), the schedules dispatch as the user
 * would.
 */
export function startCoordination(state: DaemonState, supervisor: Supervisor, store: Store): Coordination {
  const feed = new EventsFeed(store, () => state.now());
  const peers = new PeerService({ state, supervisor, feed, clock: clockFromEnv() }, store);
  const board = new TaskBoard({ state, supervisor }, feed, store, peers.context.foreground);
  const jobEvents = new JobEvents(state, feed);
  const schedules: Scheduler = new Scheduler(store, {
    clock: clockFromEnv(),
    feed,
    dispatch: async (launch, requestId): Promise<{ id: string; name: string }> =>
      (await dispatch({ state, supervisor, feed, board, schedules, peers }, daemonCaller, {
        ...launch,
        requestId,
      })) as {
        id: string;
        name: string;
      },
    isRunning: (jobId) => {
      const job = state.jobs.get(jobId);
      return job !== undefined && isLive(job);
    },
  });
  state.jobWatchers.push({
    changed: (job) => board.jobChanged(job),
    removed: (id) => board.jobRemoved(id),
  });
  state.jobWatchers.push(jobEvents, {
    changed: (job) => peers.jobChanged(job),
    removed: (id) => peers.jobRemoved(id),
  });
  return { feed, board, schedules, peers };
}
