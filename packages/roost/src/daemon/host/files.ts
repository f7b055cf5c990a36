/** Where the process host keeps its files: in the state folder it serves, and in each job's folder. */
import { unlinkSync } from "node:fs";
import { join } from "node:path";

export function hostSocketPath(stateDir: string): string {
  return join(stateDir, "host.sock");
}

/** The host's own stdout and stderr (it runs detached, with no terminal). */
export function hostLogPath(stateDir: string): string {
  return join(stateDir, "host.log");
}

/** The lock file that keeps one host per state folder where abstract sockets do not exist. */
export function hostLockPath(stateDir: string): string {
  return join(stateDir, "host.lock");
}

export function terminalLogPath(jobDir: string): string {
  return join(jobDir, "terminal.log");
}

/** Removes one of these files; one already gone is fine. */
export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}
