import { mkdirSync, rmSync } from "node:fs";
import type { AgentProfile } from "../../home/agent-profile.js";
import { checkConfig } from "../../home/config-check.js";
import { roostHome, statePaths } from "../../home/paths.js";
import { loadProfiles } from "../../home/profiles.js";
import { readWebSettings } from "../../home/web-settings.js";
import { RoostError } from "../../protocol/index.js";
import type { ProcessHost } from "../host/api.js";
import { connectHost } from "../host/index.js";
import { DaemonState } from "../jobs/daemon-state.js";
import { jobFromRecord } from "../jobs/job.js";
import { restartOf } from "../jobs/restart.js";
import { type Log, route } from "../router.js";
import { SocketServer } from "../server.js";
import { buildServices } from "../services.js";
import { keepBackups } from "../store/backups.js";
import { prepareDatabase } from "../store/database-file.js";
import { Store } from "../store/store.js";
import { WebProcess } from "../web/web-process.js";
import { acquireDaemonLock } from "./daemon-lock.js";

export interface DaemonOptions {
  home?: string;
  /** How to reach the process host; the real one by default. */
  connect?: (stateDir: string) => Promise<ProcessHost>;
  /** Where the daemon's faults go (its daemon.log); stderr by default. */
  log?: Log;
}

export interface RunningDaemon {
  state: DaemonState;
  /** Resolves when the daemon has exited its work (after shutdown or a signal). */
  done: Promise<void>;
  stop(all: boolean): Promise<void>;
}

/** The profiles the jobs were made from, as roost.json has them now (none if it cannot be read). */
function profilesNow(file: string, log: Log): Map<string, AgentProfile> {
  try {
    return loadProfiles(file);
  } catch (err) {
    log(`roost: ${(err as Error).message}; each job resumes or runs anew as its kind does`);
    return new Map();
  }
}

/**
 * Starts the daemon: takes the home's lock, opens the store, listens on the socket, connects to
 * the process host and re-adopts every job it still runs.
 */
export async function startDaemon(options: DaemonOptions = {}): Promise<RunningDaemon> {
  const paths = statePaths(options.home ?? roostHome());
  const { release, stale } = await acquireDaemonLock(paths);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (stale) log(`roost: ${stale}`);
  try {
    // Before anything else is touched: a database that is not roost's stops the daemon here.
    prepareDatabase(paths.db, paths.stateDir);
  } catch (err) {
    release();
    throw err;
  }
  mkdirSync(paths.jobsDir, { recursive: true, mode: 0o700 });
  const store = new Store(paths.db, log);
  const backups = keepBackups(store, paths.stateDir, log);
  const state = new DaemonState(paths, store, log);
  // A bad value in roost.json is said at start, naming its key; the daemon goes on with the rest.
  for (const finding of checkConfig(paths.home)) log(`roost: ${finding.message}`);
  const profiles = profilesNow(paths.config, log);
  for (const record of store.loadJobs()) {
    const restart = restartOf(record, profiles.get(record.profile));
    state.jobs.set(record.id, jobFromRecord(record, store.pendingReplies(record.id), restart));
  }
  const connect = options.connect ?? ((stateDir: string) => connectHost({ stateDir }));
  const services = buildServices({ state, store, connect: () => connect(paths.stateDir), log });
  const { supervisor } = services;
  const webSettings = readWebSettings(paths);
  const web = webSettings.enabled ? new WebProcess(paths.home, webSettings, log) : null;
  const server = new SocketServer({
    handle: (caller, op, args) => route(services, log, caller, op, args),
    opened: (caller) => state.callers.add(caller),
    closed: (caller) => {
      state.callers.delete(caller);
      services.agents.released(caller);
      services.attachments.callerClosed(caller);
    },
  });

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let jobsLetGo: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  /**
   * Stops taking connections, lets go of the jobs (or ends them, `all`) and saves what is pending.
   * Fails when the jobs could not be ended (a host that does not answer): a shutdown says so.
   */
  const letGo = (all: boolean): Promise<void> => {
    jobsLetGo ??= (async () => {
      // Attached terminals hear of it before their connection closes: a shutdown wins over them.
      services.attachments.shuttingDown(all);
      server.stopAccepting();
      services.schedules.stop();
      services.concierge.stop();
      services.worktrees.close();
      services.conversations.close();
      services.notifier.close();
      await web?.stop();
      try {
        await supervisor.close(all);
      } catch (err) {
        // Not `busy`: the daemon goes all the same, so there is nothing to try again.
        throw new RoostError(
          "internal",
          `the jobs and the process host were not ended: ${(err as Error).message}`,
        );
      } finally {
        state.flushSaves();
      }
    })();
    return jobsLetGo;
  };
  const stop = (all: boolean): Promise<void> => {
    stopping ??= (async () => {
      try {
        await letGo(all).catch((err) => log(`roost: ${(err as Error).message}`));
        await server.close();
        // The last backup has everything the daemon wrote.
        await store.committed().catch(() => {});
        backups.stop();
        await store.close().catch((err) => log(`roost: ${(err as Error).message}`));
        rmSync(paths.socket, { force: true });
      } finally {
        release();
        finish();
      }
    })();
    return stopping;
  };
  // `shutdown` is answered once what it ends has ended; the connections close after the answer.
  state.requestShutdown = (all) => {
    const ended = letGo(all);
    void ended.catch(() => {}).then(() => setImmediate(() => void stop(all)));
    return ended;
  };

  try {
    await server.listen(paths.socket);
    await supervisor.attach();
    // Not once a shutdown came while the host was being connected to.
    if (!stopping && !jobsLetGo) {
      services.schedules.start();
      services.concierge.start();
      if (web) {
        web.start();
        log(
          `roost: web: roost web serves the fleet on ${webSettings.host}:${webSettings.port} (roost web --url prints the address to open)`,
        );
      }
    }
  } catch (err) {
    await stop(false);
    throw err;
  }
  return { state, done, stop };
}
