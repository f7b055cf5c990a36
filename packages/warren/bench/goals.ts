import { availableParallelism, loadavg } from "node:os";

/** A figure a benchmark holds to its goal: `value` must be at most (or at least) `goal`. */
export interface Goal {
  name: string;
  value: number;
  goal: number;
  /** "at most": lower is better (a time, a ratio); "at least": higher is better (a rate). */
  bound: "at most" | "at least";
  unit?: string;
}

/**
 * Prints each figure against its goal and sets a non-zero exit code when one misses, so a step
 * back is seen. On a machine busier than its cores (1-minute load above their number) a miss is
 * printed as measured under load and not judged: there the machine, not the code, sets the figure.
 */
export function judgeGoals(goals: readonly Goal[]): void {
  const load = loadavg()[0]!;
  const cores = availableParallelism();
  const loaded = load > cores;
  let missed = 0;
  console.log(`goals (load average ${load.toFixed(1)} on ${cores} cores):`);
  for (const g of goals) {
    const met = g.bound === "at most" ? g.value <= g.goal : g.value >= g.goal;
    const unit = g.unit ?? "";
    const verdict = met ? "met" : loaded ? "missed, measured under load (not judged)" : "MISSED";
    console.log(`  ${g.name}: ${fmt(g.value)}${unit}, goal ${g.bound} ${fmt(g.goal)}${unit}: ${verdict}`);
    if (!met && !loaded) missed++;
  }
  if (missed > 0) process.exitCode = 1;
}

const fmt = (n: number): string =>
  Math.abs(n) >= 1000 ? Math.round(n).toLocaleString("en-US") : String(Math.round(n * 100) / 100);
