import assert from "node:assert/strict";
import { test } from "node:test";
import { passAtK, passHatK, passRates } from "../src/sweep/pass-at-k.js";
import { type RunDigest, summarize, summaryTable } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";

function near(actual: number | null | undefined, expected: number, what: string): void {
  assert.ok(
    typeof actual === "number" && Math.abs(actual - expected) < 1e-12,
    `${what}: ${actual} is not ${expected}`,
  );
}

test("pass@k and pass^k of one task, as τ-bench defines them, by hand", () => {
  // n=5 trials, c=2 successes, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10; C(2,2)/C(5,2) = 1/10.
  near(passAtK(5, 2, 2), 0.7, "pass@2 of 2/5");
  near(passHatK(5, 2, 2), 0.1, "pass^2 of 2/5");
  // k=1 is the task's success rate either way.
  near(passAtK(5, 2, 1), 0.4, "pass@1 of 2/5");
  near(passHatK(5, 2, 1), 0.4, "pass^1 of 2/5");
  // k=3: 1 - C(3,3)/C(5,3) = 1 - 1/10; C(2,3) = 0.
  near(passAtK(5, 2, 3), 0.9, "pass@3 of 2/5");
  assert.equal(passHatK(5, 2, 3), 0);
  // k=4: C(3,4) = 0, so some drawn trial always succeeds.
  assert.equal(passAtK(5, 2, 4), 1);
  // n=10, c=7, k=3: 1 - C(3,3)/C(10,3) = 1 - 1/120; C(7,3)/C(10,3) = 35/120.
  near(passAtK(10, 7, 3), 119 / 120, "pass@3 of 7/10");
  near(passHatK(10, 7, 3), 35 / 120, "pass^3 of 7/10");
  // k = n: pass@n is "some trial succeeded", pass^n "every trial did".
  assert.deepEqual([passAtK(3, 1, 3), passHatK(3, 1, 3)], [1, 0]);
  assert.deepEqual([passAtK(4, 4, 4), passHatK(4, 4, 4)], [1, 1]);
  assert.deepEqual([passAtK(4, 0, 4), passHatK(4, 0, 4)], [0, 0]);
  // Far past where C(n, k) fits a double: C(999,500)/C(1000,500) = (1000-500)/1000.
  near(passHatK(1000, 999, 500), 0.5, "pass^500 of 999/1000");
  assert.equal(passAtK(1000, 500, 1000), 1);
  for (const [n, c, k] of [
    [5, 2, 0],
    [5, 2, 6],
    [5, 6, 2],
    [5, -1, 2],
    [5, 2.5, 2],
  ] as const) {
    assert.throws(() => passAtK(n, c, k), RangeError, `n=${n} c=${c} k=${k}`);
    assert.throws(() => passHatK(n, c, k), RangeError, `n=${n} c=${c} k=${k}`);
  }
});

test("a row's pass@k and pass^k: means over its tasks, Wilson intervals over tasks, short tasks left out", () => {
  const tasks = [
    { trials: 5, successes: 2 },
    { trials: 5, successes: 5 },
    { trials: 5, successes: 0 },
    { trials: 3, successes: 3 },
  ];
  // k=2: pass@2 0.7, 1, 0, 1; pass^2 0.1, 1, 0, 1.
  const two = passRates(tasks, 2);
  assert.equal(two.tasks, 4);
  near(two.pass_at_k, 2.7 / 4, "pass@2");
  near(two.pass_hat_k, 2.1 / 4, "pass^2");
  assert.deepEqual(two.pass_at_k_ci95, wilsonInterval(2.7, 4));
  assert.deepEqual(two.pass_hat_k_ci95, wilsonInterval(2.1, 4));
  // k=4: the task of 3 trials is left out; pass@4 1, 1, 0; pass^4 0, 1, 0.
  const four = passRates(tasks, 4);
  assert.equal(four.tasks, 3);
  near(four.pass_at_k, 2 / 3, "pass@4");
  near(four.pass_hat_k, 1 / 3, "pass^4");
  assert.deepEqual(passRates([{ trials: 2, successes: 1 }], 3), {
    tasks: 0,
    pass_at_k: null,
    pass_at_k_ci95: null,
    pass_hat_k: null,
    pass_hat_k_ci95: null,
  });
});

/** A run as the summary keeps it: only scenario, mix, seed and success matter here. */
function digest(mix: string, seed: number, success: boolean): RunDigest {
  return {
    scenario: "s",
    mix,
    seed,
    success,
    sim_time_ms: 1000,
    time_ratio: success ? 1 : null,
    tested_contribution: null,
    commands: 2,
    refusals: 0,
    wall_time_ms: 5,
  };
}

test("the table with --trials 3: pass@3 and pass^3 beside the success rate, checked by hand", () => {
  // Seed 1 wins 3 of 3 trials, seed 2 1 of 3, seed 3 none; mix "short" has a task with a trial missing.
  const wins: Record<number, boolean[]> = {
    1: [true, true, true],
    2: [false, true, false],
    3: [false, false, false],
  };
  const runs = [
    ...Object.entries(wins).flatMap(([seed, trials]) => trials.map((won) => digest("m", Number(seed), won))),
    digest("short", 1, true),
    digest("short", 1, false),
  ];
  const summary = summarize(runs, 3);
  assert.equal(summary.trials, 3);
  const [row, short] = summary.rows;
  // Per seed, at k = n: pass@3 1, 1, 0 (some trial won) and pass^3 1, 0, 0 (every trial won).
  assert.equal(row!.tasks, 3);
  assert.equal(row!.pass_at_k, 2 / 3);
  assert.equal(row!.pass_hat_k, 1 / 3);
  assert.deepEqual(row!.pass_at_k_ci95, wilsonInterval(2, 3));
  assert.deepEqual(row!.pass_hat_k_ci95, wilsonInterval(1, 3));
  assert.equal(row!.success_rate, 4 / 9, "the success rate is still over runs");
  assert.equal(short!.tasks, 0);
  assert.equal(short!.pass_at_k, null);
  // Wilson by hand: 2 of 3 is 20.8%-93.9%, 1 of 3 6.1%-79.2%, 4 of 9 18.9%-73.3%.
  assert.deepEqual(summaryTable(summary).split("\n"), [
    "scenario  mix    runs  success       95% CI  pass@3       95% CI  pass^3      95% CI  sim s to success  time ratio  tested contrib  commands  refusals  wall ms",
    "s         m         9    44.4%  18.9%-73.3%   66.7%  20.8%-93.9%   33.3%  6.1%-79.2%              1.00       1.000               -      2.00      0.00      5.0",
    "s         short     2    50.0%   9.5%-90.5%       -            -       -           -              1.00       1.000               -      2.00      0.00      5.0",
  ]);
});

test("one trial (the default): no pass columns and no trial fields, the table of a sweep without trials", () => {
  const summary = summarize([digest("m", 1, true), digest("m", 2, false)]);
  assert.deepEqual(Object.keys(summary), ["runs", "successes", "rows"]);
  assert.equal(summary.rows[0]!.pass_at_k, undefined);
  assert.doesNotMatch(summaryTable(summary), /pass/);
});
