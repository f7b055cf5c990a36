import { readdirSync, readFileSync } from "node:fs";

/**
 * The processes (this one and its parents aside) whose command line or environment mentions
 * `text`: a test home's daemon, its process host (its state folder is an argument) and the jobs
 * (their environment names their folder), even once the host has left the test's process tree.
 */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || pid === process.ppid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(text) || readFileSync(`/proc/${pid}/environ`, "utf8").includes(text))
        pids.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Sends `signal` to each pid (`-pid`: its process group); returns how many it reached. */
export function signalAll(pids: number[], signal: NodeJS.Signals): number {
  let reached = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      reached++;
    } catch {
      // Already gone.
    }
  }
  return reached;
}

/** SIGKILLs each process (a stopped one too: SIGKILL needs no SIGCONT); returns how many it reached. */
export function killAll(pids: number[]): number {
  return signalAll(pids, "SIGKILL");
}
