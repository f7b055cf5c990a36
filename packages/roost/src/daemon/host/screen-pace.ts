/**
 * When the host tells its connections of screen changes, on one timer for every job (not one per
 * job). A job whose screen changes after a quiet spell is told at the next tick, a few ms later (the
 * chunks of one redraw mostly land together); one that keeps changing, at most every
 * SCREEN_PACE_MS. The jobs due in a tick are told together: their events go out in one write.
 */

/** How long a first change waits, and how often the timer runs while changes wait. */
const SCREEN_TICK_MS = 20;
/**
 * A job's screen is told at most this often while it keeps changing: a program printing ten lines a
 * second is told about eight times a second (at 80 ms, ten times, for a tenth to a fifth more of the
 * host's and the daemon's CPU; docs/benchmarks.md).
 */
export const SCREEN_PACE_MS = 120;

/**
 * A job as the pace sees it: when its screen was last told, by performance.now() (a wall clock set
 * back would hold its screens back as long).
 */
export interface Paced {
  screenToldAt: number;
}

export class ScreenPace<J extends Paced> {
  private readonly waiting = new Set<J>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;

  constructor(private readonly tell: (jobs: J[]) => void) {}

  /** The job's screen changed: it is told at the next tick its pace allows. */
  changed(job: J): void {
    this.waiting.add(job);
    const now = performance.now();
    const at = Math.max(now + SCREEN_TICK_MS, job.screenToldAt + SCREEN_PACE_MS);
    // A quiet job's change does not wait behind a tick set for jobs held back by their pace.
    if (this.timer && at < this.timerAt) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.timer) this.schedule(at, now);
  }

  /** The job is told otherwise (its last screen, as it ends) or is gone. */
  forget(job: J): void {
    this.waiting.delete(job);
  }

  private tick(): void {
    this.timer = null;
    const now = performance.now();
    const due: J[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const job of this.waiting) {
      const at = job.screenToldAt + SCREEN_PACE_MS;
      // A timer may fire a fraction of a ms before its time: such a job is due, not a tick later.
      if (at > now + 1) {
        next = Math.min(next, at);
        continue;
      }
      this.waiting.delete(job);
      job.screenToldAt = now;
      due.push(job);
    }
    if (due.length > 0) this.tell(due);
    if (this.waiting.size > 0 && !this.timer) this.schedule(Math.max(next, now + SCREEN_TICK_MS), now);
  }

  private schedule(at: number, now: number): void {
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), at - now);
  }
}
