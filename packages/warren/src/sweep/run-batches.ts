/**
 * How a RunPool hands runs to its processes. Each message between the pool and a process costs
 * both of them (a copy, a wake-up, often a context switch), which on runs of a few ms is as much
 * as the run: short runs go out in batches sized to about BATCH_TARGET_MS of play, and each
 * process holds its next batch while it plays one, so it never waits on the pool between them.
 */

/** A batch's play time aimed at by default: a message's cost is small beside it, and progress stays lively. */
export const BATCH_TARGET_MS = 100;
/** However short the runs, a batch holds at most this many. */
export const MAX_BATCH = 100;
/** Weight of the latest batch in the mean run time: a sweep's runs change length scenario by scenario. */
const LATEST_WEIGHT = 0.3;

/**
 * The runs to send a process at once. Before any run has finished (`meanRunMs` undefined) runs go
 * one at a time; towards the end batches shrink so that no process is left holding runs that an
 * idle one could play.
 */
export function batchSize(
  meanRunMs: number | undefined,
  waiting: number,
  processes: number,
  targetMs = BATCH_TARGET_MS,
): number {
  if (meanRunMs === undefined || waiting === 0) return Math.min(1, waiting);
  const byTime = Math.floor(targetMs / Math.max(meanRunMs, targetMs / MAX_BATCH));
  const fairShare = Math.ceil(waiting / (2 * processes));
  return Math.max(1, Math.min(byTime, MAX_BATCH, fairShare));
}

/**
 * While runs are shorter than this a process holds a second batch as it plays one, so the next
 * is there when one ends; a run held back so at the end of a sweep costs at most this long.
 * Longer runs (a language model deciding) go one at a time: the round trip costs nothing beside
 * them, and a run held behind another could be played sooner by another process.
 */
export const PREFETCH_BELOW_MS = 1000;

/** How many batches a process may hold, playing or waiting. */
export function batchesInHand(meanRunMs: number | undefined): number {
  return meanRunMs !== undefined && meanRunMs < PREFETCH_BELOW_MS ? 2 : 1;
}

/** The mean run time after a batch of `runs` that kept its process busy `busyMs`. */
export function nextMeanRunMs(mean: number | undefined, runs: number, busyMs: number): number {
  const latest = busyMs / runs;
  return mean === undefined ? latest : (1 - LATEST_WEIGHT) * mean + LATEST_WEIGHT * latest;
}
