/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a success rate: unlike the normal approximation it stays inside
 * [0, 1] and is still meaningful at 0 or n successes of a few runs.
 */
export function wilsonInterval(successes: number, runs: number, z = Z95): [number, number] {
  if (runs === 0) return [0, 1];
  const p = successes / runs;
  const z2 = z * z;
  const denominator = 1 + z2 / runs;
  const centre = (p + z2 / (2 * runs)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
