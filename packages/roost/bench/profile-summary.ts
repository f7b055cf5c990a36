// `node --import tsx bench/profile-summary.ts FILE.cpuprofile [N] [PARTS]`: the N functions (default
// 15) with the most self time in a V8 CPU profile (as written by `node --cpu-prof`), one a line; with
// PARTS, for the first and the last of that many equal stretches of time, so that what grows shows.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The top `n` by self time, of the samples taken between `from` and `to` (fractions of the profile's time). */
export function topSelfTime(profile: Profile, n: number, from = 0, to = 1): string[] {
  const byNode = new Map<number, number>();
  const span = profile.endTime - profile.startTime;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const f = (at - profile.startTime) / span;
    if (f >= from && f < to) byNode.set(id, (byNode.get(id) ?? 0) + delta);
  });
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|src)\//, "$1/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([key, us]) =>
        `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const profile = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Profile;
  const secs = (profile.endTime - profile.startTime) / 1e6;
  console.log(`${process.argv[2]}: ${secs.toFixed(1)} s profiled`);
  const n = Number(process.argv[3] ?? 15);
  const parts = Number(process.argv[4] ?? 1);
  if (parts <= 1) for (const line of topSelfTime(profile, n)) console.log(line);
  else
    for (const [label, from] of [["first", 0] as const, ["last", 1 - 1 / parts] as const]) {
      console.log(`the ${label} 1/${parts} of the time:`);
      for (const line of topSelfTime(profile, n, from, from + 1 / parts)) console.log(line);
    }
}
