import { Worker } from "bullmq";
import { parseQueueUrl } from "./queue-url.js";
import { RunPool } from "./run-pool.js";
import { checkRedis, RUN_QUEUE } from "./run-queue.js";
import type { RunRecord } from "./run-record.js";
import type { RunSpec } from "./sweep-plan.js";

export const DEFAULT_LOCK_MS = 30_000;

export interface QueueWorkerOptions {
  /** Runs played at once, each in its own process. */
  concurrency: number;
  /**
   * How long a taken run stays locked without its worker renewing the lock (renewed every half of
   * it). A worker that dies holds its run this long, then another worker's stall check (every
   * `lockMs`) puts it back on the queue.
   */
  lockMs?: number;
  /** A line for each run taken and finished. */
  log?: (line: string) => void;
}

export interface QueueWorker {
  close(): Promise<void>;
}

/**
 * Takes runs from the queue at `url` and plays them. The runs play in a RunPool, so this
 * process's event loop stays free to renew its locks however long a run computes.
 */
export async function startQueueWorker(url: string, options: QueueWorkerOptions): Promise<QueueWorker> {
  const connection = parseQueueUrl(url);
  await checkRedis(connection);
  const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
  const pool = new RunPool(options.concurrency);
  const log = options.log ?? (() => {});
  const worker = new Worker<RunSpec, RunRecord>(
    RUN_QUEUE,
    async (job) => {
      log(`took ${job.data.key}`);
      const record = await pool.run(job.data);
      log(`finished ${record.key}: ${record.status} ${record.log_hash}`);
      return record;
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // A run whose workers keep dying is failed after a few tries instead of taking down more.
      maxStalledCount: 3,
    },
  );
  worker.on("error", (error) => log(`queue error: ${error.message}`));
  worker.on("failed", (job, error) => log(`failed ${job?.data.key ?? "?"}: ${error.message}`));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await pool.close();
    },
  };
}
