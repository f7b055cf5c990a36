import { readFileSync } from "node:fs";

const TICK_MS = 10; // /proc's clock ticks, 100 a second on Linux

/** CPU ms a process has used, from /proc (Linux); undefined elsewhere or once it is gone. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}
