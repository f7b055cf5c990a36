import { UsageError } from "./command.js";

/** The most local processes one flag may ask for. */
export const MAX_COUNT = 256;

/** A count flag (--workers, --concurrency, --trials, --seeds): an integer from `min` to `max` (default 256). */
export function parseCount(
  flag: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max = MAX_COUNT,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max} (got "${text}")`);
  }
  return Number(text);
}
