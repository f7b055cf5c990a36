import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { createConnection } from "node:net";
import type { StatePaths } from "./paths.js";

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

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes this process the home's one daemon. The pid file, created exclusively, is the lock (two
 * daemons started at once cannot both take it); a live daemon on the socket refuses us too. A pid
 * file or socket left by a daemon that died is stale and replaced. Returns a release function.
 */
export async function acquireDaemonLock(paths: StatePaths): Promise<() => void> {
  mkdirSync(paths.stateDir, { recursive: true, mode: 0o700 });
  chmodSync(paths.stateDir, 0o700);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(paths.pidFile, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = readPid(paths.pidFile);
      if (pid !== undefined && pid !== process.pid && processAlive(pid)) {
        throw new DaemonRunningError(
          `a roost daemon (pid ${pid}) already runs on ${paths.home}: its pid file is ${paths.pidFile}`,
        );
      }
      // A daemon that died left its pid file (or one is being written right now: retry once).
      if (pid === undefined && attempt === 0) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      rmSync(paths.pidFile, { force: true });
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    if (await socketAnswers(paths.socket)) {
      rmSync(paths.pidFile, { force: true });
      throw new DaemonRunningError(`a roost daemon already answers on ${paths.socket}`);
    }
    // Nothing answers: a socket file there is stale.
    rmSync(paths.socket, { force: true });
    return () => {
      if (readPid(paths.pidFile) === process.pid) rmSync(paths.pidFile, { force: true });
    };
  }
  throw new DaemonRunningError(`could not take the daemon's pid file ${paths.pidFile}`);
}
