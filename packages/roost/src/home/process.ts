/** Whether a process runs, and waiting for one to end: read by the daemon, the host and the CLI. */
import { readFileSync } from "node:fs";

/**
 * A process's state letter from /proc (`Z`: exited, not yet reaped by its parent), or undefined
 * where there is no /proc or no such process.
 */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces and parentheses: the state follows the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/**
 * Whether a process with that pid runs (one of the user's: the same trust as the socket). A zombie
 * (exited, its parent has not reaped it yet) does not: nothing of it runs any more.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return procState(pid) !== "Z";
}

/**
 * Whether that pid is a running roost daemon (`roost daemon`, as its command line says); where
 * there is no /proc to read, whether it runs at all.
 */
export function isRoostDaemon(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return process.platform !== "linux";
  }
  return argv.includes("daemon") && argv.some((arg) => /roost|cli[\\/]main\.[jt]s$/.test(arg));
}

/** Resolves true once the process is gone, or false after `patienceMs` if it still runs. */
export async function processGone(pid: number, patienceMs: number): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
