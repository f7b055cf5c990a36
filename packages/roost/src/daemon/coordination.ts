import { TaskBoard } from "./board/task-board.js";
import type { Caller } from "./caller.js";
import { ConciergeService } from "./concierge/concierge-service.js";
import { EventsFeed } from "./events-feed.js";
import { isLive } from "./job.js";
import { JobEvents } from "./job-events.js";
import { dispatch, dispatchJob } from "./ops/jobs.js";
import { takeReply } from "./ops/replies.js";
import { PeerService } from "./peers/peer-service.js";
import { clockFromEnv } from "./schedules/clock.js";
import { Scheduler } from "./schedules/scheduler.js";
import type { DaemonState } from "./state.js";
import type { Store } from "./store.js";
import type { Supervisor } from "./supervisor.js";

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
  concierge: ConciergeService;
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
      (await dispatch({ state, supervisor, feed, board, schedules, peers, concierge }, daemonCaller, {
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
  const concierge: ConciergeService = new ConciergeService({
    state,
    supervisor,
    feed,
    clock: clockFromEnv(),
    store,
    dispatch: (launch, extend) => dispatchJob({ state, supervisor }, launch, extend),
    reply: (job, text, mode, by) =>
      takeReply(
        { state, supervisor, feed, board, schedules, peers, concierge },
        job,
        text,
        mode,
        undefined,
        undefined,
        by,
      ),
  });
  state.jobWatchers.push(
    { changed: (job) => concierge.jobChanged(job), removed: (id) => concierge.jobRemoved(id) },
    {
      changed: (job) => board.jobChanged(job),
      removed: (id) => board.jobRemoved(id),
    },
  );
  state.jobWatchers.push(jobEvents, {
    changed: (job) => peers.jobChanged(job),
    removed: (id) => peers.jobRemoved(id),
  });
  return { feed, board, schedules, peers, concierge };
}
