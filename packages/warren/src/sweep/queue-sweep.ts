import { type Job, type JobsOptions, Queue, QueueEvents } from "bullmq";
import { parseQueueUrl } from "./queue-url.js";
import { type QueueWorker, startQueueWorker } from "./queue-worker.js";
import { checkRedis, jobIdOf, KEEP_FINISHED_S, RUN_ATTEMPTS, RUN_QUEUE } from "./run-queue.js";
import type { RunRecord } from "./run-record.js";
import type { RunSink } from "./run-sink.js";
import type { RunSpec } from "./sweep-plan.js";

/** With nothing finished for this long, the sweep checks on every run it still awaits. */
const RECONCILE_AFTER_MS = 30_000;

function jobOptions(jobId: string): JobsOptions {
  return {
    jobId,
    attempts: RUN_ATTEMPTS,
    removeOnComplete: { age: KEEP_FINISHED_S },
    removeOnFail: { age: KEEP_FINISHED_S },
  };
}

/**
 * Puts the runs on the queue and reports each as its job finishes, on whichever worker. Jobs are
 * named by the sweep and the run, so a restarted sweep finds what it queued before: finished jobs
 * give their results, failed ones are retried, and adding a job that exists adds nothing. With
 * `localWorkers` this process plays runs from the queue too.
 */
export async function playOnQueue(
  url: string,
  sweepId: string,
  specs: readonly RunSpec[],
  localWorkers: number,
  sink: RunSink,
): Promise<void> {
  const connection = parseQueueUrl(url);
  await checkRedis(connection);
  const queue = new Queue(RUN_QUEUE, { connection });
  const events = new QueueEvents(RUN_QUEUE, { connection });
  const pending = new Map(specs.map((spec) => [jobIdOf(sweepId, spec.key), spec]));
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  let lastNews = performance.now();
  const settle = (jobId: string, outcome: { record: RunRecord } | { error: string }): void => {
    const spec = pending.get(jobId);
    if (!spec) return;
    pending.delete(jobId);
    lastNews = performance.now();
    if ("record" in outcome) sink.finished(outcome.record);
    else sink.failed(spec, outcome.error);
    if (pending.size === 0) allDone();
  };
  const settleFromJob = async (job: Job | undefined, jobId: string): Promise<void> => {
    if (!job) return;
    const state = await job.getState();
    if (state === "completed") settle(jobId, { record: job.returnvalue as RunRecord });
    else if (state === "failed") settle(jobId, { error: job.failedReason });
  };
  // Listen before adding, so no completion slips by between the two.
  events.on("completed", ({ jobId, returnvalue }) => {
    const record = (typeof returnvalue === "string" ? JSON.parse(returnvalue) : returnvalue) as RunRecord;
    settle(jobId, { record });
  });
  // A failed attempt may be retried: only a job that ends in the failed set counts as failed.
  events.on("failed", ({ jobId }) => {
    if (pending.has(jobId)) void queue.getJob(jobId).then((job) => settleFromJob(job, jobId));
  });
  // A safety net for news that never comes (a job removed by hand, events lost with a connection):
  // when nothing has finished for a while, every job still awaited is looked at, and queued again
  // if it is gone.
  let reconciling = false;
  const reconcile = async (): Promise<void> => {
    if (reconciling || performance.now() - lastNews < RECONCILE_AFTER_MS) return;
    reconciling = true;
    lastNews = performance.now();
    try {
      for (const [jobId, spec] of [...pending]) {
        const job = await queue.getJob(jobId);
        if (job) await settleFromJob(job, jobId);
        else await queue.add(spec.key, spec, jobOptions(jobId));
      }
    } finally {
      reconciling = false;
    }
  };
  const reconciler = setInterval(() => void reconcile().catch(() => {}), RECONCILE_AFTER_MS / 6);
  let worker: QueueWorker | undefined;
  try {
    if (localWorkers > 0) worker = await startQueueWorker(url, { concurrency: localWorkers });
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    for (const [jobId] of pending) {
      const earlier = await queue.getJob(jobId);
      if (earlier && (await earlier.getState()) === "failed") await earlier.retry();
      else await settleFromJob(earlier, jobId);
    }
    await queue.addBulk(
      [...pending].map(([jobId, spec]) => ({ name: spec.key, data: spec, opts: jobOptions(jobId) })),
    );
    if (pending.size > 0) await done;
  } finally {
    clearInterval(reconciler);
    await worker?.close();
    await events.close();
    await queue.close();
  }
}
