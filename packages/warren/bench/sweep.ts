/**
 * Sweep throughput: runs per second of short headless runs on 1, 2 and N local processes, then
 * through the Redis queue (when redis-server is installed) with this process's worker and two
 * more beside it, and the queue's overhead on runs of about a second.
 *
 *   node --import tsx bench/sweep.ts
 */
import { availableParallelism } from "node:os";
import type { AgentMix } from "../src/sweep/agent-mix.js";
import { playOnQueue } from "../src/sweep/queue-sweep.js";
import { startQueueWorker } from "../src/sweep/queue-worker.js";
import { RunPool } from "../src/sweep/run-pool.js";
import type { RunRecord } from "../src/sweep/run-record.js";
import { planRuns, type RunSpec } from "../src/sweep/sweep-plan.js";
import { redisMissing, startRedis } from "../test/helpers/redis-server.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];
const seeds = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const short = (from: number, count: number): RunSpec[] =>
  planRuns(SCENARIOS, seeds(from, count), [{ name: "solution" }]);
// bridge_repair takes 49 s of sim time at most: at 49 sim ms per wall ms a run lasts about a second.
const SECOND_MIX: AgentMix = { name: "second", pace: 49 };
const secondLong = (from: number, count: number): RunSpec[] =>
  planRuns(["bridge_repair"], seeds(from, count), [SECOND_MIX]);

async function timed(play: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await play();
  return (performance.now() - started) / 1000;
}

async function onPool(size: number, specs: RunSpec[]): Promise<number> {
  const pool = new RunPool(size);
  // Warm-up: every process loads the engine before the clock starts.
  await Promise.all(
    short(1_000_000, size)
      .slice(0, size)
      .map((spec) => pool.run(spec)),
  );
  const seconds = await timed(() => Promise.all(specs.map((spec) => pool.run(spec))));
  await pool.close();
  return seconds;
}

const line = (label: string, runs: number, seconds: number): void =>
  console.log(
    `  ${label.padEnd(34)} ${String(runs).padStart(4)} runs  ${seconds.toFixed(2).padStart(6)} s  ${(runs / seconds).toFixed(1).padStart(6)} runs/s`,
  );

const cores = availableParallelism();
console.log(`short headless runs (3 scenarios, every agent on its runner), ${cores} cores:`);
// Enough runs (each a few ms now) that starting the processes does not hide how they scale.
const shortRuns = short(1, 600);
const rates: Record<number, number> = {};
for (const size of [...new Set([1, 2, cores])]) {
  const seconds = await onPool(size, shortRuns);
  rates[size] = shortRuns.length / seconds;
  line(`local, ${size} process${size === 1 ? "" : "es"}`, shortRuns.length, seconds);
}
console.log(`  speed-up with 2: ${(rates[2]! / rates[1]!).toFixed(2)}x (goal: near 2x on 2 free cores)`);

const missing = redisMissing();
if (missing) {
  console.log(`queue: not measured: ${missing}`);
} else {
  const redis = await startRedis();
  try {
    // Three workers of one run each, started once and warmed up: "this process's" and two beside it.
    const workers = await Promise.all([1, 2, 3].map(() => startQueueWorker(redis.url, { concurrency: 1 })));
    const collect = (specs: RunSpec[], sweepId: string): Promise<void> => {
      const records: RunRecord[] = [];
      return playOnQueue(redis.url, sweepId, specs, 0, {
        finished: (r) => records.push(r),
        failed: (spec, error) => console.log(`  ${spec.key} failed: ${error}`),
      });
    };
    await collect(short(2_000_000, 6), "warmup");
    console.log("queue on redis-server, this process's worker and 2 beside it:");
    const queuedShort = short(1, 60);
    line("short runs", queuedShort.length, await timed(() => collect(queuedShort, "short")));
    const longRuns = secondLong(1, 9);
    const local = await onPool(3, longRuns);
    const queued = await timed(() => collect(secondLong(1, 9), "second"));
    line("~1 s runs, local, 3 processes", longRuns.length, local);
    line("~1 s runs, queue, 3 workers", longRuns.length, queued);
    const perRun = ((queued - local) / (longRuns.length / 3)) * 1000;
    console.log(
      `  queue overhead per run: ${perRun.toFixed(0)} ms, ${((perRun / ((local / (longRuns.length / 3)) * 1000)) * 100).toFixed(1)}% of a run (goal: under 5%)`,
    );
    await Promise.all(workers.map((w) => w.close()));
  } finally {
    await redis.stop();
  }
}
