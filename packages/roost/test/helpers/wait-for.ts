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
  const deadline = Date.now() + timeoutMs;
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
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
