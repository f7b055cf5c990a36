import { readFileSync } from "node:fs";

/** A process's name, parent, and CPU seconds (its own, and `waited`: its reaped children's too). */
export function procStat(
  pid: number | string,
): { name: string; ppid: number; own: number; waited: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state, ppid, ... utime (12), stime, cutime, cstime, in clock ticks.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
  return {
    name,
    ppid: Number(fields[1]),
    own: (utime + stime) / 100,
    waited: (utime + stime + cutime + cstime) / 100,
  };
}

/** CPU seconds (user + system) a process has used itself, from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  return procStat(pid)?.own ?? 0;
}
