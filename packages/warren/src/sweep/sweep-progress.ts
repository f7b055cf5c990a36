/** Plain lines (not a terminal) come at most this often, plus one at the end. */
const PLAIN_LINE_EVERY_MS = 2000;
/** A terminal's bar is redrawn at most this often: hundreds of runs a second need not be hundreds of writes. */
const BAR_EVERY_MS = 100;
const BAR_WIDTH = 24;

export interface ProgressSink {
  write(text: string): void;
  /** A terminal: the bar is redrawn in place. */
  isTTY: boolean;
}

/**
 * The sweep's progress on stderr: runs done of the total, runs that failed (did not meet every
 * objective), runs that could not be played (errors), the rate since the start and time left.
 */
export class SweepProgress {
  private done = 0;
  private failed = 0;
  private errors = 0;
  private lastShown = Number.NEGATIVE_INFINITY;
  /** Runs counted when the last plain line was written: the final line is not written twice. */
  private countedAtLastLine = -1;
  private readonly startedMs = performance.now();

  constructor(
    private readonly sink: ProgressSink,
    private readonly total: number,
    /** Runs recorded before this start: they count as done but not towards the rate. */
    private readonly alreadyDone: number,
  ) {}

  recordFinished(success: boolean): void {
    this.done++;
    if (!success) this.failed++;
    this.show(false);
  }

  recordError(): void {
    this.errors++;
    this.show(false);
  }

  finish(): void {
    this.show(true);
  }

  line(): string {
    const elapsedS = (performance.now() - this.startedMs) / 1000;
    const finished = this.alreadyDone + this.done;
    const rate = elapsedS > 0 ? this.done / elapsedS : 0;
    const left = this.total - finished - this.errors;
    const eta =
      left === 0 ? "finished" : rate > 0 ? `${formatDuration(left / rate)} left` : "time left unknown";
    const errors = this.errors > 0 ? `, ${this.errors} errors` : "";
    return `${finished}/${this.total} done, ${this.failed} failed${errors}, ${rate.toFixed(1)} runs/s, ${eta}`;
  }

  private show(final: boolean): void {
    const now = performance.now();
    if (this.sink.isTTY) {
      if (!final && now - this.lastShown < BAR_EVERY_MS) return;
      this.lastShown = now;
      const filled = Math.round((BAR_WIDTH * (this.alreadyDone + this.done)) / Math.max(1, this.total));
      const bar = `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}]`;
      this.sink.write(`\r\x1b[2K${bar} ${this.line()}${final ? "\n" : ""}`);
      return;
    }
    const counted = this.done + this.errors;
    if (final ? counted === this.countedAtLastLine : now - this.lastShown < PLAIN_LINE_EVERY_MS) return;
    this.lastShown = now;
    this.countedAtLastLine = counted;
    this.sink.write(`${this.line()}\n`);
  }
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
