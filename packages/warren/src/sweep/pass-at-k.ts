import { wilsonInterval } from "./wilson.js";

/** One task of a sweep (a scenario, mix and seed) and how its trials went. */
export interface TaskTrials {
  trials: number;
  successes: number;
}

/** pass@k and pass^k over a row's tasks, as the summary reports them. */
export interface PassRates {
  /** Tasks played at least k times: the means and intervals are over these. */
  tasks: number;
  /** Mean over tasks of pass@k; null when no task was played k times. */
  pass_at_k: number | null;
  /** Wilson score interval, 95 %, over the tasks. */
  pass_at_k_ci95: [number, number] | null;
  /** Mean over tasks of pass^k; null when no task was played k times. */
  pass_hat_k: number | null;
  pass_hat_k_ci95: [number, number] | null;
}

/**
 * pass@k (as τ-bench defines it): the chance that at least one of k trials drawn without
 * replacement from a task's n, c of them successes, succeeds: 1 - C(n-c, k) / C(n, k).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return 1 - chanceAllDrawnFrom(n - c, n, k);
}

/** pass^k (τ-bench's): the chance that all k trials drawn from a task's n succeed: C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  return chanceAllDrawnFrom(c, n, k);
}

/**
 * The means over tasks of pass@k and pass^k, each with a 95 % Wilson interval over the tasks:
 * tasks (seeds) are independent draws, and at k = n a task's pass@k and pass^k are 0 or 1, the
 * interval's own setting; for k < n they lie in [0, 1], whose variance is at most p(1 - p), so
 * the interval is no narrower than it should be. Tasks played fewer than k times are left out.
 */
export function passRates(tasks: readonly TaskTrials[], k: number): PassRates {
  const counted = tasks.filter((t) => t.trials >= k);
  if (counted.length === 0) {
    return { tasks: 0, pass_at_k: null, pass_at_k_ci95: null, pass_hat_k: null, pass_hat_k_ci95: null };
  }
  const total = (rate: (n: number, c: number, k: number) => number): number =>
    counted.reduce((sum, t) => sum + rate(t.trials, t.successes, k), 0);
  const atK = total(passAtK);
  const hatK = total(passHatK);
  return {
    tasks: counted.length,
    pass_at_k: atK / counted.length,
    pass_at_k_ci95: wilsonInterval(atK, counted.length),
    pass_hat_k: hatK / counted.length,
    pass_hat_k_ci95: wilsonInterval(hatK, counted.length),
  };
}

/** C(m, k) / C(n, k), as a product of k ratios so that no binomial coefficient overflows. */
function chanceAllDrawnFrom(m: number, n: number, k: number): number {
  let chance = 1;
  for (let i = 0; i < k; i++) {
    if (i >= m) return 0;
    chance *= (m - i) / (n - i);
  }
  return chance;
}

function checkCounts(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n (got n=${n}, c=${c}, k=${k})`);
  }
}
