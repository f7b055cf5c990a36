import { readResumeAfterReboot } from "../home/reboot-settings.js";
import type { DispatchArgs } from "../protocol/index.js";
import { BoardService } from "./board/board-service.js";
import { Budgets } from "./budgets/budgets.js";
import { ConciergeService } from "./concierge/concierge-service.js";
import { ConversationReader } from "./conversations/conversation-reader.js";
import { DaemonControl } from "./daemon-control.js";
import { Dispatcher } from "./dispatch/dispatcher.js";
import { EventsFeed } from "./feed/events-feed.js";
import { JobEvents } from "./feed/job-events.js";
import type { ProcessHost } from "./host/api.js";
import { AgentConnections } from "./jobs/agent-connections.js";
import type { DaemonState } from "./jobs/daemon-state.js";
import { isLive } from "./jobs/job.js";
import { Jobs } from "./jobs/jobs-service.js";
import { resumeByThemselves } from "./jobs/resume-interrupted.js";
import { Supervisor } from "./jobs/supervisor.js";
import { Notifier } from "./notify/notifier.js";
import type { OpContext } from "./ops/context.js";
import { ForegroundPeers } from "./peers/foreground.js";
import { PeerService } from "./peers/peer-service.js";
import { Replies } from "./replies/replies.js";
import { clockFromEnv } from "./schedules/clock.js";
import { Scheduler } from "./schedules/scheduler.js";
import type { Store } from "./store/store.js";
import { Attachments } from "./terminal/attachments.js";
import { TerminalRows } from "./terminal/terminal-rows.js";
import { Transcripts } from "./transcripts/transcripts.js";
import { Worktrees } from "./worktrees/worktrees.js";

/** What the services are built from: the jobs' state and store, the host's address, the log. */
export interface ServiceDeps {
  state: DaemonState;
  store: Store;
  /** Connects to the process host (starting it if need be). */
  connect: () => Promise<ProcessHost>;
  log: (line: string) => void;
}

/**
 * Builds the services the ops work with, each given what it uses, and wires them to the jobs'
 * changes: the one place they are made. The terminal agents' rows (the supervisor tells them of
 * screens), the supervisor, the jobs and the replies, the feed, the dispatcher (the user's
 * dispatch, a schedule's runs and a session's spawn all start jobs through it), the peers, the task
 * board (it hears of every job's change and removal, to release what an ended job held), the
 * schedules, the concierge (it replies through the replies as the user does), who is attached to
 * which terminal, the jobs' git worktrees, the notifier (it hears of every change, to tell the
 * person of a session that waits, failed or finished), the budgets (they hear of every change, to
 * count what each session's usage grew by; the replies, respawns and dispatches ask them first), and
 * the transcripts read from the agents' own records.
 */
export function buildServices({ state, store, connect, log }: ServiceDeps): OpContext {
  const clock = clockFromEnv();
  const terminalRows = new TerminalRows(state);
  const supervisor = new Supervisor(state, connect, log, terminalRows);
  const worktrees = new Worktrees(state, log);
  const conversations = new ConversationReader(state, log);
  const feed = new EventsFeed(store, () => state.now());
  const notifier = new Notifier(state, log);
  const budgets = new Budgets({ state, store, feed, notifier, supervisor, log, now: () => clock.now() });
  const jobs = new Jobs(state, supervisor, worktrees, budgets);
  supervisor.interrupted = (found) => {
    if (!readResumeAfterReboot(state.paths)) return;
    resumeByThemselves(jobs, found, log).catch((err) =>
      log(`roost: resumeAfterReboot failed: ${(err as Error)?.stack ?? err}`),
    );
  };
  const replies = new Replies(state, supervisor, feed, terminalRows, budgets);
  const dispatcher = new Dispatcher(state, supervisor, terminalRows, worktrees, budgets);
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
    reply: (job, text, mode, by) => replies.take(job, text, mode, { by }),
  });
  state.jobWatchers.push(
    { changed: (job) => concierge.jobChanged(job), removed: (id) => concierge.jobRemoved(id) },
    { changed: (job) => board.jobChanged(job), removed: (id) => board.jobRemoved(id) },
    new JobEvents(state, feed),
    { changed: (job) => peers.jobChanged(job), removed: (id) => peers.jobRemoved(id) },
    { changed: () => {}, removed: (id) => terminalRows.removed(id) },
    { changed: () => {}, removed: (id) => worktrees.untrack(id) },
    { changed: (job) => notifier.jobChanged(job), removed: (id) => notifier.jobRemoved(id) },
    budgets,
    { changed: () => {}, removed: (id) => conversations.removed(id) },
  );
  worktrees.start();
  conversations.start();
  return {
    jobs,
    agents: new AgentConnections(jobs),
    replies,
    supervisor,
    feed,
    dispatcher,
    board,
    schedules,
    peers,
    terminalRows,
    attachments: new Attachments(state),
    concierge,
    daemon: new DaemonControl(state),
    worktrees,
    notifier,
    conversations,
    transcripts: new Transcripts(),
  };
}
