import type { TestDaemon } from "./daemon.js";
import { waitForExit } from "./faults.js";
import { killAll, processesMentioning, signalAll } from "./leftovers.js";

/**
 * A reboot as a home's processes know it: every job's process group, the process host and the
 * daemon SIGKILLed together, then the daemon started again (and nothing else). Answers the pids of
 * the jobs' processes that were killed.
 *
 * "Together": each is stopped before any is killed, so that none sees another go and acts on it
 * (a daemon whose host went would start a new one, which a reboot would not have left running).
 */
export async function reboot(daemon: TestDaemon): Promise<number[]> {
  const conn = await daemon.connect();
  const rows: { pid: number | null }[] = (await conn.request("list")).result.rows;
  conn.close();
  const pids = rows.map((row) => row.pid).filter((pid): pid is number => pid !== null);
  // Each job runs in a session of its own, its pid its group's.
  const groups = pids.map((pid) => -pid);
  const home = processesMentioning(daemon.home);
  signalAll([...groups, ...home], "SIGSTOP");
  killAll([...groups, ...home]);
  await daemon.kill("SIGKILL").catch(() => {});
  for (const pid of [...pids, ...home]) await waitForExit(pid);
  await daemon.start();
  return pids;
}
