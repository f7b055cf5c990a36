/** Whether a process runs, and waiting for one to end: read by the daemon, the host and the CLI. */

/** Whether a process with that pid runs (one of the user's: the same trust as the socket). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
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
