import { UsageError } from "./command.js";

/** The most local processes one flag may ask for. */
export const MAX_COUNT = 256;

/** A count flag (--workers, --concurrency): an integer from `min` to 256. */
export function parseCount(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > MAX_COUNT) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${MAX_COUNT} (got "${text}")`);
  }
  return Number(text);
}
