import { RecordBatcher } from "./record-batcher.js";
import { RunPool } from "./run-pool.js";
import type { RunSink } from "./run-sink.js";
import { SweepDir } from "./sweep-dir.js";
import type { RunSpec } from "./sweep-plan.js";
import { type ProgressSink, SweepProgress } from "./sweep-progress.js";
import { digestOf, type RunDigest, type SweepSummary, summarize } from "./sweep-summary.js";
import { planTrajectories, queueRefusal } from "./sweep-trajectories.js";

export interface SweepOptions {
  /** Every run of the sweep (`planRuns`): each (scenario, mix, seed) once per trial. */
  plan: readonly RunSpec[];
  /** Where records and the summary go; a sweep started again on the same folder resumes. */
  outDir: string;
  /** Local processes playing runs: all of them without a queue, beside the queue's workers with one. */
  workers: number;
  /** Without a queue: plays the runs on this pool (left open) instead of starting `workers` processes. */
  pool?: RunPool;
  /** redis://HOST:PORT: runs go on the BullMQ queue there for `warren worker`s to take. */
  queueUrl?: string;
  progress: ProgressSink;
  /**
   * Each run played writes its trajectory into this folder (docs/trajectories.md). Refused with a
   * TrajectoryError, before anything is played, with a queue or a folder that cannot be written.
   */
  trajectoryDir?: string;
}

export interface SweepResult {
  summary: SweepSummary;
  /** Runs recorded by an earlier start of this sweep. */
  resumed: number;
  /** Runs that could not be played (not the same as a failed run); a restart tries them again. */
  errors: { key: string; error: string }[];
}

/**
 * Plays every (scenario, mix, seed, trial) not yet recorded in the sweep's folder, appending records as
 * they come (those that come together in one write), then writes and returns the summary of every run of the plan.
 */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const { plan, trajectoryDir } = options;
  if (trajectoryDir !== undefined && options.queueUrl !== undefined) throw queueRefusal();
  const dir = new SweepDir(options.outDir);
  // Of each run recorded, what the table needs.
  const recorded = new Map<string, RunDigest>();
  for (const [key, record] of dir.readRecords()) recorded.set(key, digestOf(record));
  const missing = plan.filter((spec) => !recorded.has(spec.key));
  const resumed = plan.length - missing.length;
  if (resumed > 0) {
    options.progress.write(
      `resuming: ${resumed} of ${plan.length} runs already recorded in ${options.outDir}\n`,
    );
  }
  const toPlay =
    trajectoryDir === undefined
      ? missing
      : planTrajectories(
          trajectoryDir,
          missing,
          plan.filter((spec) => recorded.has(spec.key)),
          (line) => options.progress.write(line),
        );
  const progress = new SweepProgress(options.progress, plan.length, resumed);
  const errors: SweepResult["errors"] = [];
  const unwritten = new RecordBatcher((records) => dir.appendRecords(records));
  const sink: RunSink = {
    finished(record) {
      // A run reported twice (a queue retry racing its first attempt) is counted once.
      if (recorded.has(record.key)) return;
      recorded.set(record.key, digestOf(record));
      unwritten.add(record);
      progress.recordFinished(record.success);
    },
    failed(spec, error) {
      errors.push({ key: spec.key, error });
      progress.recordError();
    },
  };
  try {
    if (toPlay.length > 0) await play(options, dir.sweepId, toPlay, sink);
  } finally {
    unwritten.flush();
  }
  progress.finish();
  const trials = plan.reduce((most, spec) => Math.max(most, spec.trial + 1), 1);
  const summary = summarize(
    plan.flatMap((spec) => recorded.get(spec.key) ?? []),
    trials,
  );
  dir.writeSummary(summary);
  return { summary, resumed, errors };
}

async function play(options: SweepOptions, sweepId: string, specs: RunSpec[], sink: RunSink): Promise<void> {
  if (options.queueUrl !== undefined) {
    const { playOnQueue } = await import("./queue-sweep.js");
    return playOnQueue(options.queueUrl, sweepId, specs, options.workers, sink);
  }
  if (options.pool) return playOnPool(options.pool, specs, sink);
  const pool = new RunPool(Math.min(options.workers, specs.length));
  try {
    await playOnPool(pool, specs, sink);
  } finally {
    await pool.close();
  }
}

async function playOnPool(pool: RunPool, specs: readonly RunSpec[], sink: RunSink): Promise<void> {
  await Promise.all(
    specs.map((spec) =>
      pool.run(spec).then(
        (record) => sink.finished(record),
        (error: Error) => sink.failed(spec, error.message),
      ),
    ),
  );
}
