/**
 * How often a wait looks again: every 25 ms for its first second, then every 100 ms. Most checks
 * ask the daemon for its rows, which costs the test and the daemon about a millisecond of CPU each
 * time; a wait for a CLI or pi to start lasts seconds, and at 40 looks a second the waits were a
 * steady load on the machine the suite runs on.
 */
const FIRST_INTERVAL_MS = 25;
const LATER_INTERVAL_MS = 100;
const FIRST_INTERVAL_FOR_MS = 1000;

/**
 * Polls `check` until it gives a value other than undefined or false, or fails after `timeoutMs`.
 * A check that throws has not come true yet (a file being rotated, a socket not yet up); its last
 * error is named if time runs out.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError === undefined ? "" : ` (last: ${(lastError as Error).message ?? lastError})`;
      throw new Error(`timed out waiting for ${what}${why}`);
    }
    const interval = Date.now() - started < FIRST_INTERVAL_FOR_MS ? FIRST_INTERVAL_MS : LATER_INTERVAL_MS;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
