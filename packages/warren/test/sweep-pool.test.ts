import assert from "node:assert/strict";
import { test } from "node:test";
import { executeRun } from "../src/sweep/execute-run.js";
import {
  BATCH_TARGET_MS,
  batchesInHand,
  batchSize,
  MAX_BATCH,
  nextMeanRunMs,
  PREFETCH_BELOW_MS,
} from "../src/sweep/run-batches.js";
import { RunPool } from "../src/sweep/run-pool.js";
import type { RunRecord } from "../src/sweep/run-record.js";
import { planRuns } from "../src/sweep/sweep-plan.js";

const seeds = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const shortRuns = (count: number) =>
  planRuns(["signal_relay", "harvest_rush"], seeds(1, count / 2), [{ name: "solution" }]);

test("batches: one run until a run time is known, about BATCH_TARGET_MS of play after, smaller at the end", () => {
  assert.equal(batchSize(undefined, 500, 2), 1, "nothing known yet: one at a time");
  assert.equal(batchSize(2, 0, 2), 0);
  assert.equal(batchSize(2, 500, 2), BATCH_TARGET_MS / 2);
  assert.equal(batchSize(0, 500, 2), MAX_BATCH, "however short the runs");
  assert.equal(batchSize(0.001, 1000, 1), MAX_BATCH);
  assert.equal(batchSize(BATCH_TARGET_MS, 500, 2), 1);
  assert.equal(batchSize(60_000, 500, 2), 1, "a minute-long run goes alone");
  assert.equal(batchSize(1, 8, 2), 2, "the last runs are shared out: half of each process's share");
  assert.equal(batchSize(1, 1, 2), 1);
  assert.equal(batchesInHand(2), 2, "short runs: a batch playing and the next waiting");
  assert.equal(batchesInHand(PREFETCH_BELOW_MS - 1), 2);
  assert.equal(batchesInHand(PREFETCH_BELOW_MS), 1, "long runs: one in hand, none held from an idle process");
  assert.equal(batchesInHand(undefined), 1);
  assert.equal(batchSize(100, 500, 2, 1000), 10, "a pool may aim at longer batches");
  assert.equal(nextMeanRunMs(undefined, 4, 40), 10);
  assert.equal(nextMeanRunMs(10, 1, 20), 13, "the latest batch weighs 0.3");
});

// Batches aimed at 10 s of play: a loaded machine's slow runs are still short beside that.
const LONG_BATCHES_MS = 10_000;

test("a pool sends short runs in batches and gives each run its own record, as played in one process", async () => {
  const specs = shortRuns(300);
  const pool = new RunPool(2, LONG_BATCHES_MS);
  try {
    const records = await Promise.all(specs.map((spec) => pool.run(spec)));
    const sends = pool.batchesSent;
    assert.deepEqual(
      records.map((r) => r.key),
      specs.map((s) => s.key),
    );
    assert.ok(sends > 0 && sends < specs.length / 3, `${sends} batches for ${specs.length} runs`);
    assert.ok(pool.busyMs > 0, "the processes report the time they played");
    for (const i of [0, 1, 150, 299]) {
      assert.equal(records[i]!.log_hash, (await executeRun(specs[i]!)).log_hash, specs[i]!.key);
    }
  } finally {
    await pool.close();
  }
});

test("a process killed holding a batch loses none of it: each run is played again on its own", async () => {
  const specs = shortRuns(200);
  const pool = new RunPool(1, LONG_BATCHES_MS);
  let killed: number | undefined;
  try {
    const outcomes = specs.map((spec, i) =>
      pool.run(spec).then(
        (record): RunRecord => {
          // The first record makes the pool send a batch at once: the kill finds the process holding it.
          if (i === 0) {
            killed = pool.pids[0];
            process.kill(killed!, "SIGKILL");
          }
          return record;
        },
        (error: Error) => error.message,
      ),
    );
    const settled = await Promise.all(outcomes);
    assert.ok(killed !== undefined && !pool.pids.includes(killed), "the killed process was replaced");
    const lost = settled.filter((s) => typeof s === "string");
    assert.deepEqual(lost, [], "no run failed with the process");
    assert.deepEqual(
      settled.map((r) => (r as RunRecord).key),
      specs.map((s) => s.key),
    );
  } finally {
    await pool.close();
  }
});
