import { isProcessAlive } from "../../home/process.js";
import { readWriterLock } from "../../home/writer-lock.js";
import {
  foldName,
  type PeerRegisterArgs,
  type PeerRegisterResult,
  type PeersResult,
  RoostError,
  refuseReservedName,
} from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { Dispatcher } from "../dispatch/dispatcher.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { Clock } from "../schedules/clock.js";
import type { Store } from "../store/store.js";
import { type ForegroundPeers, foregroundId } from "./foreground.js";
import { Messaging } from "./messaging.js";
import type { PeerContext } from "./peer-context.js";
import { ReportRouter } from "./report-router.js";
import { allSessions, peerInfo, reachable, speakerOf } from "./sessions.js";
import { SpawnTree } from "./tree.js";
import { readPeerSettings } from "./user-config.js";
import { Watches } from "./watches.js";

/**
 * Agent-to-agent in the daemon: foreground peers, `peers`, messages, the spawn tree, hand-back
 * and watches. It hears of every job's change and removal (synthetic `ended` reports, kept
 * reports for a parent that is back, watches that fire).
 */
export class PeerService {
  readonly context: PeerContext;
  readonly messaging: Messaging;
  readonly tree: SpawnTree;
  readonly reports: ReportRouter;
  readonly watches: Watches;

  constructor(
    deps: {
      state: DaemonState;
      supervisor: Supervisor;
      dispatcher: Dispatcher;
      feed: EventsFeed;
      foreground: ForegroundPeers;
      clock: Clock;
    },
    store: Store,
  ) {
    const { state, clock } = deps;
    this.context = {
      state,
      supervisor: deps.supervisor,
      dispatcher: deps.dispatcher,
      feed: deps.feed,
      foreground: deps.foreground,
      now: () => clock.now(),
      settings: () => readPeerSettings(state.paths.config),
    };
    this.messaging = new Messaging(this.context);
    this.tree = new SpawnTree(this.context);
    this.reports = new ReportRouter(this.context);
    this.watches = new Watches(this.context, store);
    // Watches whose job changed while the daemon was away fire once it is up.
    setImmediate(() => this.watches.check());
  }

  jobChanged(job: Job): void {
    this.reports.jobChanged(job);
    this.watches.check();
  }

  jobRemoved(id: string): void {
    this.reports.jobRemoved(id);
    this.watches.check();
  }

  /** The peers the caller may reach (external ones only with `agentExternalMessages`). */
  peers(caller: Caller): PeersResult {
    const { state, foreground } = this.context;
    const self = speakerOf(state, foreground, caller);
    const others = reachable(self, allSessions(state, foreground), this.context.settings().externalMessages);
    return { peers: others.map((other) => peerInfo(self, other)) };
  }

  /**
   * `peer_register {session, name, cwd, pid}`: a foreground session joins, taken only when roost's
   * writer lock for `session` names `pid` and that process lives. Its connection is its liveness.
   */
  register(caller: Caller, { session, name, cwd, pid }: PeerRegisterArgs): PeerRegisterResult {
    if (foldName(name) === "") throw new RoostError("bad_request", "name must be a non-empty string");
    refuseReservedName(name);
    if (caller.jobId !== null)
      throw new RoostError(
        "unsupported",
        "a job's connection speaks for its job: it cannot register a foreground session",
      );
    const lock = readWriterLock(this.context.state.paths.stateDir, session);
    if (!lock || lock.session !== session)
      throw new RoostError("unauthorized", "no writer lock for that session: take roost's writer lock first");
    if (lock.pid !== pid)
      throw new RoostError(
        "unauthorized",
        `the session's writer lock is held by pid ${lock.pid}, not ${pid}`,
      );
    if (!isProcessAlive(pid)) throw new RoostError("unauthorized", `pid ${pid} is not running`);
    caller.role = "session";
    const peer = this.context.foreground.register({
      id: foregroundId(session),
      session,
      name: foldName(name),
      cwd,
      pid,
      caller,
    });
    // Reports kept for this session go to it once it has its answer.
    caller.later(() => this.reports.retryFor(session));
    return { id: peer.id, name: peer.name };
  }
}
