/**
 * Sums a V8 CPU profile (`.cpuprofile`) by function: self time (samples with the function on top)
 * and inclusive time (samples with it anywhere on the stack, counted once), the top N of each.
 * Times are the sampler's wall clock, so on a busy machine read the shares, not the milliseconds.
 *
 *   node --import tsx bench/profile-summary.ts FILE.cpuprofile [N] [MATCH]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, "").replace(/^.*\/(src|bench)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where}${where ? `:${lineNumber + 1}` : ""}`;
}

function summarize(profile: Profile): {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    // A sample's time is the delta to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    total += ms;
    const top = label(byId.get(id)!);
    self.set(top, (self.get(top) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue; // recursion counts once
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  });
  return { self, inclusive, total };
}

const [file, top = "40", match = ""] = process.argv.slice(2);
if (!file) {
  console.error("usage: profile-summary.ts FILE.cpuprofile [N] [MATCH]");
  process.exit(2);
}
const { self, inclusive, total } = summarize(JSON.parse(readFileSync(file, "utf8")) as Profile);
const busy = total - (self.get("(idle) ") ?? 0);
for (const [title, times] of [
  ["self", self],
  ["inclusive", inclusive],
] as const) {
  console.log(`${title} time, of ${busy.toFixed(0)} ms not idle (${total.toFixed(0)} ms sampled):`);
  const rows = [...times].filter(([name]) => name.includes(match)).sort((a, b) => b[1] - a[1]);
  for (const [name, ms] of rows.slice(0, Number(top))) {
    console.log(`${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
}
