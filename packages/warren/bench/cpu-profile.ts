import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

/**
 * Starts the V8 CPU profiler of this process when `dir` is given; the function returned stops it
 * and writes DIR/NAME.cpuprofile. So a benchmark profiles just the stretch it measures, each
 * part apart (`bench/profile-summary.ts` sums one by function). Without `dir` it does nothing.
 */
export async function startCpuProfile(dir: string | undefined, name: string): Promise<() => Promise<void>> {
  if (dir === undefined) return async () => {};
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}
