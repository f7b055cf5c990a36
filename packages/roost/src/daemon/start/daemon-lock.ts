import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import type { StatePaths } from "../../home/paths.js";
import { isProcessAlive, isRoostDaemon } from "../../home/process.js";
import { RoostError } from "../../protocol/index.js";
import { acquireStateLock } from "../host/state-lock.js";

/** Another daemon holds this home. */
export class DaemonRunningError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DaemonRunningError";
  }
}

/** Whether something answers on the socket. */
export function socketAnswers(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes this process the home's one daemon. The lock is the process host's kind (an abstract
 * socket on Linux, freed by the kernel when the daemon dies): it cannot go stale, and two daemons
 * started at once cannot both take it. Holding it, a pid file or a socket file left behind is stale
 * whatever it says (the pid in it may be another live process's by now) and is replaced; a socket
 * that answers all the same (a daemon from before this lock) refuses us. The pid file says who
 * runs; it is no lock. Returns a release function, and what was stale when there was something.
 */
export async function acquireDaemonLock(paths: StatePaths): Promise<{ release(): void; stale?: string }> {
  mkdirSync(paths.stateDir, { recursive: true, mode: 0o700 });
  chmodSync(paths.stateDir, 0o700);
  const lock = await acquireStateLock(paths.stateDir, "daemon", paths.pidFile);
  if (!lock) {
    const pid = readPid(paths.pidFile);
    throw new DaemonRunningError(
      `a roost daemon${pid !== undefined ? ` (pid ${pid})` : ""} already runs on ${paths.home}`,
    );
  }
  // A pid file naming no running daemon: nothing can answer on the socket, so it is not asked.
  const named = readPid(paths.pidFile);
  const stale = named !== undefined && !isRoostDaemon(named);
  if (!stale && (await socketAnswers(paths.socket))) {
    lock.release();
    throw new DaemonRunningError(`a roost daemon already answers on ${paths.socket}`);
  }
  rmSync(paths.socket, { force: true });
  writeFileSync(paths.pidFile, `${process.pid}\n`, { mode: 0o600 });
  return {
    release: () => {
      if (readPid(paths.pidFile) === process.pid) rmSync(paths.pidFile, { force: true });
      lock.release();
    },
    ...(stale
      ? {
          stale: `the pid file named ${named}, ${isProcessAlive(named) ? "not a roost daemon" : "not running"}: replaced without asking the socket`,
        }
      : {}),
  };
}

/**
 * Holds the home as a daemon would, for a command that must not run beside one (a restore): no
 * daemon starts meanwhile. `busy` while one runs. Returns the release.
 */
export async function holdStoppedHome(paths: StatePaths, what: string): Promise<() => void> {
  try {
    return (await acquireDaemonLock(paths)).release;
  } catch (err) {
    if (!(err instanceof DaemonRunningError)) throw err;
    throw new RoostError("busy", `${err.message}: \`roost shutdown\` first, then ${what}`);
  }
}
