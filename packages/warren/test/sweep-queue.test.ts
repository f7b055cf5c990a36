import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { redisMissing, startRedis } from "./helpers/redis-server.js";
import { readRecords, runWarren, startWarren, type WarrenProcess } from "./helpers/warren-process.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];
const root = mkdtempSync(join(tmpdir(), "warren-queue-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** The table without wall times, which differ between any two sweeps. */
function simulatedColumns(summary: SweepSummary): unknown[] {
  return summary.rows.map(({ mean_wall_ms: _, ...row }) => row);
}

test("a sweep on the Redis queue, three workers, one SIGKILLed mid-run: every run counted once, the local table", async (t) => {
  const missing = redisMissing();
  assert.equal(missing, "", missing);
  const redis = await startRedis();
  const workers: WarrenProcess[] = [];
  t.after(async () => {
    for (const w of workers) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    await redis.stop();
  });

  // Paced so that a run lasts long enough to die in (pace never changes a run, so neither the hashes).
  const mixes = join(root, "paced.json");
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 25 }] }));
  for (let i = 0; i < 3; i++) {
    workers.push(startWarren(["worker", "--queue", redis.url, "--concurrency", "1", "--lock-ms", "2000"]));
  }
  // The same runs played locally, while the workers start.
  const local = await runWarren([
    "sweep",
    ...SCENARIOS,
    "--seeds",
    "1-8",
    "--workers",
    "2",
    "--out",
    join(root, "local"),
    "--json",
  ]);
  assert.equal(local.code, 0, local.stderr);
  await Promise.all(workers.map((w) => w.waitForStderr(/worker: taking runs/)));
  const out = join(root, "queued");
  const sweep = startWarren([
    "sweep",
    ...SCENARIOS,
    "--seeds",
    "1-8",
    "--agents",
    mixes,
    "--queue",
    redis.url,
    "--out",
    out,
    "--json",
  ]);

  const victim = workers[0]!;
  // A bridge_repair run lasts about 1.4 s at this pace: the kill lands while it plays.
  const [, killedKey] = await victim.waitForStderr(/took (bridge_repair\/solution\/\d+)/);
  victim.child.kill("SIGKILL");
  assert.equal((await victim.exited).signal, "SIGKILL");
  assert.doesNotMatch(victim.stderr(), new RegExp(`finished ${killedKey}:`), "the run died with its worker");

  const { code } = await sweep.exited;
  assert.equal(code, 0, sweep.stderr());
  const records = readRecords(out);
  assert.equal(records.length, 24);
  assert.equal(new Set(records.map((r) => r.key)).size, 24, "every run is recorded once");
  const survivors = workers.slice(1).map((w) => w.stderr());
  assert.ok(
    survivors.some((log) => log.includes(`finished ${killedKey}:`)),
    `another worker played ${killedKey} again`,
  );

  const localRecords = new Map(readRecords(join(root, "local")).map((r) => [r.key, r]));
  for (const r of records) assert.equal(r.log_hash, localRecords.get(r.key)!.log_hash, r.key);
  const queued = JSON.parse(sweep.stdout()) as SweepSummary;
  assert.equal(queued.runs, 24);
  assert.deepEqual(simulatedColumns(queued), simulatedColumns(JSON.parse(local.stdout) as SweepSummary));

  // The workers that lived stop cleanly when asked.
  for (const w of workers.slice(1)) w.child.kill("SIGTERM");
  for (const w of workers.slice(1)) assert.equal((await w.exited).code, 0, w.stderr());
});
