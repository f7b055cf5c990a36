/** Waits between retries: 100 ms doubling to at most 2 s. */
export function backoffMs(attempt: number): number {
  return Math.min(2000, 100 * 2 ** attempt);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
