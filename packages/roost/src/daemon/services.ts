import type { DispatchArgs, ReplyMode, ReplyResult } from "../protocol/index.js";
import { BoardService } from "./board/board-service.js";
import { ConciergeService } from "./concierge/concierge-service.js";
import { Dispatcher } from "./dispatch/dispatcher.js";
import { EventsFeed, type FeedActor } from "./feed/events-feed.js";
import { JobEvents } from "./feed/job-events.js";
import type { DaemonState } from "./jobs/daemon-state.js";
import { isLive, type Job } from "./jobs/job.js";
import type { Supervisor } from "./jobs/supervisor.js";
import type { OpContext } from "./ops/context.js";
import { ForegroundPeers } from "./peers/foreground.js";
import { PeerService } from "./peers/peer-service.js";
import { clockFromEnv } from "./schedules/clock.js";
import { Scheduler } from "./schedules/scheduler.js";
import type { Store } from "./store/store.js";
import { Attachments } from "./terminal/attachments.js";
import type { TerminalRows } from "./terminal/terminal-rows.js";
import { Worktrees } from "./worktrees/worktrees.js";

/** How a reply is taken (the reply op's way, given from above: the ops sit over the services). */
export type ReplyAs = (
  ctx: OpContext,
  job: Job,
  text: string,
  mode: ReplyMode | null,
  by: FeedActor,
) => Promise<ReplyResult>;

/**
 * Builds the services the ops work with, each given what it uses, and wires them to the jobs'
 * changes: the one place they are made. The feed, the dispatcher (the user's dispatch, a
 * schedule's runs and a session's spawn all start jobs through it), the peers, the task board (it
 * hears of every job's change and removal, to release what an ended job held), the schedules, who
 * is attached to which terminal, the jobs' git worktrees, and the terminal agents' rows (made before, as the supervisor
 * tells them of screens; they forget a removed job here).
 */
export function buildServices(
  state: DaemonState,
  supervisor: Supervisor,
  store: Store,
  terminalRows: TerminalRows,
  reply: ReplyAs,
): OpContext {
  const clock = clockFromEnv();
  const feed = new EventsFeed(store, () => state.now());
  const worktrees = new Worktrees(state, state.log);
  const dispatcher = new Dispatcher(state, supervisor, terminalRows, worktrees);
  const foreground = new ForegroundPeers(() => clock.now());
  const peers = new PeerService({ state, supervisor, dispatcher, feed, foreground, clock }, store);
  const board = new BoardService({ state, supervisor }, feed, store, foreground);
  const schedules = new Scheduler(store, {
    clock,
    feed,
    dispatch: (launch, requestId) => dispatcher.dispatch({ ...launch, requestId }),
    isRunning: (jobId) => {
      const job = state.jobs.get(jobId);
      return job !== undefined && isLive(job);
    },
  });
  const concierge = new ConciergeService({
    state,
    supervisor,
    feed,
    clock,
    store,
    dispatch: (launch, extend) => dispatcher.dispatch(launch as DispatchArgs, extend),
    reply: (job, text, mode, by) => reply(services, job, text, mode, by),
  });
  state.jobWatchers.push(
    { changed: (job) => concierge.jobChanged(job), removed: (id) => concierge.jobRemoved(id) },
    { changed: (job) => board.jobChanged(job), removed: (id) => board.jobRemoved(id) },
    new JobEvents(state, feed),
    { changed: (job) => peers.jobChanged(job), removed: (id) => peers.jobRemoved(id) },
    { changed: () => {}, removed: (id) => terminalRows.removed(id) },
    { changed: () => {}, removed: (id) => worktrees.untrack(id) },
  );
  worktrees.start();
  const attachments = new Attachments(state);
  const services: OpContext = {
    state,
    supervisor,
    feed,
    dispatcher,
    board,
    schedules,
    peers,
    terminalRows,
    attachments,
    concierge,
    worktrees,
  };
  return services;
}
