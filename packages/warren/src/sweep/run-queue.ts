import type { RedisOptions } from "ioredis";

/** The BullMQ queue every sweep puts its runs on and every `warren worker` takes them from. */
export const RUN_QUEUE = "warren-runs";

/** A job's id: the sweep's id and the run's key (BullMQ ids may not hold ":"). */
export function jobIdOf(sweepId: string, key: string): string {
  return `${sweepId}-${key.replaceAll("/", "-")}`;
}

/** Finished jobs stay this long, so a sweep restarted within it collects results it missed. */
export const KEEP_FINISHED_S = 7 * 24 * 3600;

/** A run's job may be tried this often when the process playing it dies (not when the run fails). */
export const RUN_ATTEMPTS = 2;

/** How long a worker may wait for Redis before it says it cannot reach it. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Resolves once `ready` does, or rejects saying Redis is not there. */
export async function reachRedis(ready: Promise<unknown>, connection: RedisOptions): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`cannot reach Redis at ${connection.host}:${connection.port}`)),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
