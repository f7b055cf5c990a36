/** The most seeds one sweep may name: a typo like 1-1000000000 is refused, not attempted. */
export const MAX_SWEEP_SEEDS = 1_000_000;
const MAX_SEED = 0xffffffff;

/**
 * The seeds a `--seeds` value names: "7", "1-200", or several of those joined by commas
 * ("1-20,50"). Each seed is listed once, in the order given. Throws an Error saying what is wrong.
 */
export function parseSeeds(text: string): number[] {
  const seeds = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) throw new Error(`--seeds must be N, A-B or a comma-separated list of those (got "${text}")`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from > MAX_SEED || to > MAX_SEED) throw new Error(`a seed is at most ${MAX_SEED} (got "${part}")`);
    if (to < from) throw new Error(`a seed range runs upwards (got "${part}")`);
    if (seeds.size + (to - from + 1) > MAX_SWEEP_SEEDS) {
      throw new Error(`a sweep takes at most ${MAX_SWEEP_SEEDS} seeds (got "${text}")`);
    }
    for (let seed = from; seed <= to; seed++) seeds.add(seed);
  }
  return [...seeds];
}
