/**
 * What keeping runs on disk costs the engine: the 1,000-agent stress world of bench/run.ts run
 * through a server's registry, with no store and with a store in a fresh folder, alternately in
 * the same process (the first pair warms up). Reports events per CPU second of the whole
 * process: the engine thread's share of the store (gathering and serializing events on a timer)
 * and the writer thread's SQLite work together.
 *
 *   node --import tsx bench/persistence.ts
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildServer, catalogOf } from "../src/server/index.js";
import { STORE_FILE } from "../src/server/run-store.js";
import { stressScenario } from "./stress-scenario.js";

const scenario = stressScenario(1000, 300_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Measurement {
  /** Events per CPU second of the process. */
  cpu: number;
  mb: number;
}

async function measure(persist: boolean): Promise<Measurement> {
  const dataDir = persist ? mkdtempSync(join(tmpdir(), "warren-bench-")) : undefined;
  const server = await buildServer({ scenarios: catalogOf([scenario]), dataDir });
  const cpu = process.cpuUsage();
  const hosted = server.registry.create(scenario.name, 1, {});
  const summary = await hosted.run.whenEnded();
  await server.app.close();
  const used = process.cpuUsage(cpu);
  const mb = dataDir ? statSync(join(dataDir, STORE_FILE)).size / 2 ** 20 : 0;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const events = summary.event_cursor;
  return { cpu: events / ((used.user + used.system) / 1e6), mb };
}

const rate = (n: number): string => Math.round(n).toLocaleString("en-US");
const change = (after: number, before: number): string => `${((after / before - 1) * 100).toFixed(1)} %`;
const rows: string[] = [];
for (let round = 0; round <= ROUNDS; round++) {
  const memory = await measure(false);
  const disk = await measure(true);
  if (round === 0) continue;
  rows.push(
    `round ${round}: in memory ${rate(memory.cpu)}, with the store ${rate(disk.cpu)} events/s cpu (${change(disk.cpu, memory.cpu)}); ${disk.mb.toFixed(1)} MB on disk`,
  );
}
for (const row of rows) console.log(row);
