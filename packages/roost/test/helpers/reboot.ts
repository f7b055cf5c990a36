import type { TestDaemon } from "./daemon.js";
import { waitForExit } from "./faults.js";
import { killAll, processesMentioning } from "./leftovers.js";

/**
 * A reboot as a home's processes know it: every job's process group, the process host and the
 * daemon SIGKILLed together, then the daemon started again (and nothing else). Answers the pids of
 * the jobs' processes that were killed.
 */
export async function reboot(daemon: TestDaemon): Promise<number[]> {
  const conn = await daemon.connect();
  const rows: { pid: number | null }[] = (await conn.request("list")).result.rows;
  conn.close();
  const pids = rows.map((row) => row.pid).filter((pid): pid is number => pid !== null);
  for (const pid of pids) {
    try {
      // Each job runs in a session of its own, its pid its group's.
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  killAll(processesMentioning(daemon.home));
  await daemon.kill("SIGKILL").catch(() => {});
  for (const pid of pids) await waitForExit(pid);
  await daemon.start();
  return pids;
}
