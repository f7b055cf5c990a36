import { Redis, type RedisOptions } from "ioredis";

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

/** How long to wait for Redis to answer before saying it cannot be reached. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Throws "cannot reach Redis at HOST:PORT: why" unless Redis answers a PING. Checked before any
 * BullMQ object exists: those retry a lost connection forever, which is right once running and
 * wrong for a mistyped address.
 */
export async function checkRedis(connection: RedisOptions): Promise<void> {
  const probe = new Redis({
    ...connection,
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause = "";
  probe.on("error", (error: Error) => {
    cause = error.message;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const why = cause || (error as Error).message;
    throw new Error(`cannot reach Redis at ${connection.host}:${connection.port}: ${why}`);
  } finally {
    probe.disconnect();
  }
}
