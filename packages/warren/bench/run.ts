import { Run } from "../src/engine/run.js";
import { stressScenario } from "./stress-scenario.js";

/**
 * In-process throughput of the engine: a generated stress world with 10, 100 and 1,000 agents,
 * every agent on its runner, pace null. Reports wakes and simulation events per wall second.
 */
const SIZES = [10, 100, 1000];
const SIM_MS: Record<number, number> = { 10: 3_600_000, 100: 600_000, 1000: 120_000 };

async function measure(
  agents: number,
): Promise<{ agents: number; wakes: number; events: number; wallMs: number }> {
  const run = new Run({
    runId: `bench-${agents}`,
    scenario: stressScenario(agents, SIM_MS[agents]!),
    seed: 1,
    npcPolicy: "solution",
    pace: null,
    retainEvents: false,
  });
  let wakes = 0;
  let events = 0;
  run.onEvent((e) => {
    if (!e.sim) return;
    events++;
    if (e.kind === "wake") wakes++;
  });
  const started = performance.now();
  run.start();
  const summary = await run.whenEnded();
  const wallMs = performance.now() - started;
  if (summary.status === "crashed") throw new Error(`bench run crashed: ${summary.status_reason}`);
  return { agents, wakes, events, wallMs };
}

console.log("agents  sim_s   wakes      events     wall_s  wakes/s    events/s");
for (const size of SIZES) {
  const r = await measure(size);
  const s = r.wallMs / 1000;
  console.log(
    `${String(r.agents).padEnd(7)} ${String(SIM_MS[size]! / 1000).padEnd(7)} ${String(r.wakes).padEnd(10)} ${String(r.events).padEnd(10)} ${s.toFixed(2).padEnd(7)} ${Math.round(
      r.wakes / s,
    )
      .toString()
      .padEnd(10)} ${Math.round(r.events / s)}`,
  );
}
