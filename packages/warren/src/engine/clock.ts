/**
 * Wall time and timers, injected into the run driver (never into the simulation core), so tests
 * can drive deadlines and pace by hand.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls `fn` after `ms` wall milliseconds; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** setTimeout's longest delay; a longer timer is re-armed until its time has come. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    let handle: NodeJS.Timeout;
    const arm = (left: number): void => {
      handle = setTimeout(
        () => (left > MAX_TIMEOUT_MS ? arm(left - MAX_TIMEOUT_MS) : fn()),
        Math.min(left, MAX_TIMEOUT_MS),
      );
    };
    arm(Math.max(0, ms));
    return () => clearTimeout(handle);
  },
};

/** A clock that only moves when told to: `advance(ms)` fires the timers that fall due, in order. */
export class ManualClock implements Clock {
  private time: number;
  private timers: { at: number; order: number; fn: () => void; live: boolean }[] = [];
  private order = 0;

  constructor(startMs = 1_700_000_000_000) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + Math.max(0, ms), order: this.order++, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  /** Moves time forward by `ms`, firing due timers in time order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.timers = this.timers.filter((t) => t.live);
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.at);
      due.live = false;
      due.fn();
    }
    this.time = end;
  }

  /** How many timers are waiting. */
  pending(): number {
    return this.timers.filter((t) => t.live).length;
  }
}
