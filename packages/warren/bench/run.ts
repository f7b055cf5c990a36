import { createHash } from "node:crypto";
import type { RunEvent } from "../src/engine/events.js";
import { Run } from "../src/engine/run.js";
import { judgeGoals } from "./goals.js";
import { stressScenario } from "./stress-scenario.js";

/**
 * In-process throughput of the engine: a generated stress world with 10, 100 and 1,000 agents,
 * every agent on its runner, pace null. Reports wakes and simulation events per second of wall
 * time and per second of this process's CPU time (the fairer figure on a shared machine), and a
 * floor measured beside each: the CPU time of only serializing and hashing the same run's events,
 * the least any engine logging them must spend. Goal at 1,000 agents: at least 300,000 events per
 * CPU second; a miss exits non-zero (see judgeGoals).
 */
const GOAL_AT_1000 = 300_000;
const SIZES = [10, 100, 1000];
const SIM_MS: Record<number, number> = { 10: 7_200_000, 100: 1_200_000, 1000: 300_000 };

interface Measurement {
  agents: number;
  wakes: number;
  events: number;
  wallMs: number;
  cpuMs: number;
}

/** The stress run of `agents`, keeping `retainEvents` of its events. */
function stressRun(agents: number, retainEvents: number): Run {
  return new Run({
    runId: `bench-${agents}`,
    scenario: stressScenario(agents, SIM_MS[agents]!),
    seed: 1,
    npcPolicy: "solution",
    pace: null,
    retainEvents,
    maxRetainedBytes: Number.POSITIVE_INFINITY,
  });
}

async function measure(agents: number): Promise<Measurement> {
  const run = stressRun(agents, 0);
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

/** The run's simulation events, kept (outside any measurement) for the floor. */
async function simEvents(agents: number): Promise<RunEvent[]> {
  const run = stressRun(agents, Number.POSITIVE_INFINITY);
  run.start();
  await run.whenEnded();
  return run.events(0).filter((e) => e.sim);
}

/** CPU ms to serialize and hash the events as the log does (its lines, hashed in chunks). */
function floorCpuMs(events: readonly RunEvent[]): number {
  const cpu = process.cpuUsage();
  const hash = createHash("sha256");
  let pending = "";
  for (const e of events) {
    pending += `${e.sim_time_ms} ${e.kind} ${JSON.stringify(e.data)}\n`;
    if (pending.length > 65_536) {
      hash.update(pending);
      pending = "";
    }
  }
  hash.update(pending);
  hash.digest("hex");
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

// A short warm-up so the first size is not measured while the JIT is still compiling.
await measure(10);
const rows = [
  [
    "agents",
    "sim s",
    "wakes",
    "events",
    "wall s",
    "cpu s",
    "wakes/s wall",
    "events/s wall",
    "events/s cpu",
    "floor events/s cpu",
    "cpu ÷ floor",
  ],
];
let at1000 = 0;
for (const size of SIZES) {
  const r = await measure(size);
  const floorMs = floorCpuMs(await simEvents(size));
  if (size === 1000) at1000 = r.events / (r.cpuMs / 1000);
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
    rate(r.events, floorMs),
    `${(r.cpuMs / floorMs).toFixed(1)}×`,
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join("  "));
judgeGoals([
  { name: "events per CPU second at 1,000 agents", value: at1000, goal: GOAL_AT_1000, bound: "at least" },
]);
