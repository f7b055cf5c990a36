import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

/** Ends the processes a benchmark started and removes its home. */
export async function cleanUp(children: ChildProcess[], home: string): Promise<void> {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  // The daemon's last log line may land after its socket closed: remove the home once it is quiet.
  await new Promise((r) => setTimeout(r, 1500));
  rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
