import { Run } from "../src/engine/run.js";
import { stressScenario } from "./stress-scenario.js";

/**
 * In-process throughput of the engine: a generated stress world with 10, 100 and 1,000 agents,
 * every agent on its runner, pace null. Reports wakes and simulation events per second of wall
 * time and per second of this process's CPU time (the fairer figure on a shared machine).
 */
const SIZES = [10, 100, 1000];
const SIM_MS: Record<number, number> = { 10: 7_200_000, 100: 1_200_000, 1000: 300_000 };

interface Measurement {
  agents: number;
  wakes: number;
  events: number;
  wallMs: number;
  cpuMs: number;
}

async function measure(agents: number): Promise<Measurement> {
  const run = new Run({
    runId: `bench-${agents}`,
    scenario: stressScenario(agents, SIM_MS[agents]!),
    seed: 1,
    npcPolicy: "solution",
    pace: null,
    retainEvents: 0,
  });
  let wakes = 0;
  let events = 0;
  run.onEvent((e) => {
    if (!e.sim) return;
    events++;
    // A refusal's wake has no event of its own: its decision announces it (wakes_at_ms).
    if (e.kind === "wake" || (e.kind === "decision" && "refused" in e.data)) wakes++;
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  run.start();
  const summary = await run.whenEnded();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (summary.status === "crashed") throw new Error(`bench run crashed: ${summary.status_reason}`);
  return { agents, wakes, events, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

const rate = (count: number, ms: number): string => Math.round(count / (ms / 1000)).toLocaleString("en-US");

// A short warm-up so the first size is not measured while the JIT is still compiling.
await measure(10);
const rows = [
  ["agents", "sim s", "wakes", "events", "wall s", "cpu s", "wakes/s wall", "events/s wall", "events/s cpu"],
];
for (const size of SIZES) {
  const r = await measure(size);
  rows.push([
    String(r.agents),
    String(SIM_MS[size]! / 1000),
    String(r.wakes),
    String(r.events),
    (r.wallMs / 1000).toFixed(2),
    (r.cpuMs / 1000).toFixed(2),
    rate(r.wakes, r.wallMs),
    rate(r.events, r.wallMs),
    rate(r.events, r.cpuMs),
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join("  "));
