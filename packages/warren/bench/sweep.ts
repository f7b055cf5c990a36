/**
 * Sweep throughput: runs per second of a whole local sweep (records written, progress kept) on 1,
 * 2 and N = cores processes, for short headless runs and for runs of about 75 ms, each setting
 * played twice and the better kept; beside each, the floor: the same runs split over as many bare
 * processes that only play them (what the machine itself gives), and the CPU the sweep's own
 * process and its workers used, to show which one limits. Then, when redis-server is installed, the Redis queue with three
 * workers and its overhead on runs of about a second.
 *
 *   node --import tsx bench/sweep.ts
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentMix } from "../src/sweep/agent-mix.js";
import { playOnQueue } from "../src/sweep/queue-sweep.js";
import { startQueueWorker } from "../src/sweep/queue-worker.js";
import { processArgv, RunPool } from "../src/sweep/run-pool.js";
import { runSweep } from "../src/sweep/sweep.js";
import { planRuns, type RunSpec } from "../src/sweep/sweep-plan.js";
import { redisMissing, startRedis } from "../test/helpers/redis-server.js";
import { cpuMsOf } from "./process-cpu.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];
const seeds = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const short = (from: number, count: number): RunSpec[] =>
  planRuns(SCENARIOS, seeds(from, count), [{ name: "solution" }]);
// bridge_repair takes 30 to 49 s of sim time: at 500 sim ms per wall ms a run lasts 60 to 100 ms.
const PACED_MIX: AgentMix = { name: "paced", pace: 500 };
const paced = (from: number, count: number): RunSpec[] =>
  planRuns(["bridge_repair"], seeds(from, count), [PACED_MIX]);
// At 49 sim ms per wall ms, about a second.
const SECOND_MIX: AgentMix = { name: "second", pace: 49 };
const secondLong = (from: number, count: number): RunSpec[] =>
  planRuns(["bridge_repair"], seeds(from, count), [SECOND_MIX]);

const root = mkdtempSync(join(tmpdir(), "warren-bench-sweep-"));
const quiet = { write: () => {}, isTTY: false };
const cores = availableParallelism();

const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Measure {
  seconds: number;
  /** The sweep's own process: CPU over wall time, in cores. */
  sweepCores: number;
  /** The workers: CPU over wall time and worker count, the share of their time they computed. */
  workersCpu: number | undefined;
  /** The share of the workers' time they waited for runs to play: the pool, not the machine, keeping them idle. */
  workersWaiting: number;
  /** Runs over the batches the pool sent. */
  runsPerBatch: number;
}

/** One whole sweep of `specs` on a pool of `size` processes already started and warmed up. */
async function sweepOnce(pool: RunPool, specs: RunSpec[]): Promise<Measure> {
  const out = mkdtempSync(join(root, "sweep-"));
  const workerCpu = (): number[] | undefined => {
    const each = pool.pids.map(cpuMsOf);
    return each.every((ms) => ms !== undefined) ? (each as number[]) : undefined;
  };
  const workersBefore = workerCpu();
  const batchesBefore = pool.batchesSent;
  const busyBefore = pool.busyMs;
  const cpuBefore = ownCpuMs();
  const started = performance.now();
  await runSweep({ plan: specs, outDir: out, workers: pool.size, pool, progress: quiet });
  const wallMs = performance.now() - started;
  const sweepCores = (ownCpuMs() - cpuBefore) / wallMs;
  const workersAfter = workerCpu();
  const workersCpu =
    workersBefore && workersAfter
      ? workersAfter.reduce((sum, ms, i) => sum + ms - workersBefore[i]!, 0) / wallMs / pool.size
      : undefined;
  rmSync(out, { recursive: true, force: true });
  const workersWaiting = 1 - (pool.busyMs - busyBefore) / wallMs / pool.size;
  const runsPerBatch = specs.length / (pool.batchesSent - batchesBefore);
  return { seconds: wallMs / 1000, sweepCores, workersCpu, workersWaiting, runsPerBatch };
}

/** The better of two sweeps on `size` fresh processes. */
async function bestOfTwo(size: number, specs: RunSpec[], warmUp: RunSpec[]): Promise<Measure> {
  const pool = new RunPool(size);
  try {
    // Every process loads the engine and V8 compiles its hot paths before the clock starts: a
    // fresh process plays its first thousand short runs at half the speed of the next.
    await Promise.all(warmUp.map((spec) => pool.run(spec)));
    const first = await sweepOnce(pool, specs);
    const second = await sweepOnce(pool, specs);
    return first.seconds <= second.seconds ? first : second;
  } finally {
    await pool.close();
  }
}

/** The floor: the better of two plays of `specs` split over `size` bare processes (play-alone.ts). */
async function aloneBestOfTwo(size: number, specs: RunSpec[], warmUp: RunSpec[]): Promise<number> {
  const entry = fileURLToPath(new URL("./play-alone.ts", import.meta.url));
  const members = Array.from({ length: size }, () => fork(entry, [], { execArgv: processArgv(size) }));
  const play = (all: RunSpec[]): Promise<unknown> =>
    Promise.all(
      members.map(
        (member, i) =>
          new Promise((resolve) => {
            member.once("message", resolve);
            member.send(all.filter((_, j) => j % size === i));
          }),
      ),
    );
  try {
    await play(warmUp);
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      await play(specs);
      best = Math.min(best, (performance.now() - started) / 1000);
    }
    return best;
  } finally {
    for (const member of members) member.disconnect();
  }
}

const percent = (x: number | undefined): string => (x === undefined ? "-" : `${(x * 100).toFixed(0)}%`);

async function scaling(title: string, specs: RunSpec[], warmUp: RunSpec[]): Promise<void> {
  console.log(`${title}: ${specs.length} runs a sweep, the better of two`);
  console.log(
    "  workers    runs/s  speed-up  bare runs/s  bare speed-up  sweep/bare  sweep process CPU  workers' CPU  workers waiting  runs a batch",
  );
  let one = 0;
  let bareOne = 0;
  const ratio = (x: number): string => `${x.toFixed(2)}x`;
  for (const size of [...new Set([1, 2, cores])]) {
    const best = await bestOfTwo(size, specs, warmUp);
    const rate = specs.length / best.seconds;
    const bare = specs.length / (await aloneBestOfTwo(size, specs, warmUp));
    if (size === 1) [one, bareOne] = [rate, bare];
    console.log(
      `  ${String(size).padStart(7)}  ${rate.toFixed(1).padStart(8)}  ${ratio(rate / one).padStart(8)}  ${bare.toFixed(1).padStart(11)}  ${ratio(bare / bareOne).padStart(13)}  ${ratio(rate / bare).padStart(10)}  ${percent(best.sweepCores).padStart(17)}  ${percent(best.workersCpu).padStart(12)}  ${percent(best.workersWaiting).padStart(15)}  ${best.runsPerBatch.toFixed(1).padStart(12)}`,
    );
  }
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

console.log(`${cores} cores; load average ${load()} (1, 5, 15 min) before the first sweep`);
await scaling(
  "short headless runs (3 scenarios, every agent on its runner)",
  short(1, 1500),
  short(1_000_000, 1000),
);
await scaling("~75 ms runs (bridge_repair paced at 500 sim ms a wall ms)", paced(1, 40), paced(1_000_000, 8));
console.log(`load average ${load()} after`);

const missing = redisMissing();
if (missing) {
  console.log(`queue: not measured: ${missing}`);
} else {
  const redis = await startRedis();
  try {
    // Three workers of one run each, started once and warmed up: "this process's" and two beside it.
    const workers = await Promise.all([1, 2, 3].map(() => startQueueWorker(redis.url, { concurrency: 1 })));
    const collect = (specs: RunSpec[], sweepId: string): Promise<void> =>
      playOnQueue(redis.url, sweepId, specs, 0, {
        finished: () => {},
        failed: (spec, error) => console.log(`  ${spec.key} failed: ${error}`),
      });
    const timed = async (play: () => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      await play();
      return (performance.now() - started) / 1000;
    };
    await collect(short(2_000_000, 6), "warmup");
    const line = (label: string, runs: number, seconds: number): void =>
      console.log(
        `  ${label.padEnd(32)} ${String(runs).padStart(4)} runs  ${seconds.toFixed(2).padStart(6)} s  ${(runs / seconds).toFixed(1).padStart(6)} runs/s`,
      );
    console.log("queue on redis-server, three workers of one run each:");
    const queuedShort = short(1, 60);
    line("short runs", queuedShort.length, await timed(() => collect(queuedShort, "short")));
    const longRuns = secondLong(1, 9);
    const local = (await bestOfTwo(3, longRuns, short(1_000_000, 8))).seconds;
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
rmSync(root, { recursive: true, force: true });
