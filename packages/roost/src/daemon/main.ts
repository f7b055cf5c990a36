import { mkdirSync, rmSync } from "node:fs";
import { startCoordination } from "./coordination.js";
import type { ProcessHost } from "./host/api.js";
import { connectHost } from "./host/index.js";
import { jobFromRecord } from "./job.js";
import { acquireDaemonLock } from "./lock.js";
import { releaseCaller } from "./ops/agent.js";
import type { OpContext } from "./ops/context.js";
import { roostHome, statePaths } from "./paths.js";
import { route } from "./router.js";
import { SocketServer } from "./server.js";
import { DaemonState } from "./state.js";
import { Store } from "./store.js";
import { Supervisor } from "./supervisor.js";
import { attachmentsOf } from "./terminal/attachments.js";

export interface DaemonOptions {
  home?: string;
  /** How to reach the process host; the real one by default. */
  connect?: (stateDir: string) => Promise<ProcessHost>;
}

export interface RunningDaemon {
  state: DaemonState;
  /** Resolves when the daemon has exited its work (after shutdown or a signal). */
  done: Promise<void>;
  stop(all: boolean): Promise<void>;
}

/**
 * Starts the daemon: takes the home's lock, opens the store, listens on the socket, connects to
 * the process host and re-adopts every job it still runs.
 */
export async function startDaemon(options: DaemonOptions = {}): Promise<RunningDaemon> {
  const paths = statePaths(options.home ?? roostHome());
  const release = await acquireDaemonLock(paths);
  mkdirSync(paths.jobsDir, { recursive: true, mode: 0o700 });
  const store = new Store(paths.db);
  const state = new DaemonState(paths, store);
  for (const record of store.loadJobs()) {
    state.jobs.set(record.id, jobFromRecord(record, store.pendingReplies(record.id)));
  }
  const connect = options.connect ?? ((stateDir: string) => connectHost({ stateDir }));
  const supervisor = new Supervisor(state, () => connect(paths.stateDir));
  const coordination = startCoordination(state, supervisor, store.database);
  const ctx: OpContext = { state, supervisor, ...coordination };
  const server = new SocketServer({
    handle: (caller, op, args) => route(ctx, caller, op, args),
    opened: (caller) => state.callers.add(caller),
    closed: (caller) => {
      state.callers.delete(caller);
      releaseCaller(state, caller);
      attachmentsOf(state).callerClosed(caller);
    },
  });

  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let stopping: Promise<void> | null = null;
  const stop = (all: boolean): Promise<void> => {
    stopping ??= (async () => {
      // Attached terminals hear of it before their connection closes: a shutdown wins over them.
      attachmentsOf(state).shuttingDown(all);
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
      coordination.schedules.stop();
      await supervisor.close(all).catch((err) => console.error(`roost: ${(err as Error).message}`));
      state.flushSaves();
      await store.close();
      rmSync(paths.socket, { force: true });
      release();
      finish();
    })();
    return stopping;
  };
  state.requestShutdown = (all) => void stop(all);

  try {
    await server.listen(paths.socket);
    await supervisor.attach();
    coordination.schedules.start();
  } catch (err) {
    await stop(false);
    throw err;
  }
  return { state, done, stop };
}
