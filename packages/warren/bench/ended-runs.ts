/**
 * Memory a server holds for its ended runs: 1,000 runs of a stress world end one after another on
 * one server, keeping every ended run whole (no event cap: how the server kept them before the
 * cap), with a cap of 100,000 events, and with a cap of 0 (every ended run but the latest kept only
 * as its summary). Each configuration runs in a process of its own, so none inherits another's
 * garbage. `npm run bench:ended-runs`.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildServer, catalogOf } from "../src/server/index.js";
import { stressScenario } from "./stress-scenario.js";

const RUNS = 1_000;
// Ten walkers for 10 sim s: about 270 events a run.
const scenario = stressScenario(10, 10_000);

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc");
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function measure(label: string, endedRunEvents: number): Promise<void> {
  const server = await buildServer({ scenarios: catalogOf([scenario]), endedRunEvents });
  const before = heapMb();
  let events = 0;
  for (let i = 0; i < RUNS; i++) {
    const hosted = server.registry.create(scenario.name, 1, {});
    events += (await hosted.run.whenEnded()).event_cursor;
  }
  const held = heapMb() - before;
  const kept = server.registry.ended.heldEvents;
  console.log(
    `  ${label.padEnd(30)} ${events.toLocaleString("en")} events logged, ` +
      `${kept.toLocaleString("en").padStart(7)} kept whole: heap +${held.toFixed(1)} MB`,
  );
  await server.app.close();
}

const cap = process.argv[2];
if (cap === undefined) {
  console.log(`memory held by ${RUNS} ended runs on one server:`);
  for (const config of ["none", "100000", "0"]) {
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), config], {
      stdio: "inherit",
    });
  }
} else if (cap === "none") {
  await measure("every ended run whole (no cap)", Number.POSITIVE_INFINITY);
} else {
  const events = Number(cap);
  await measure(`cap of ${events.toLocaleString("en")} events`, events);
}
