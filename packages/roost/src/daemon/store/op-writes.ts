import { AsyncLocalStorage } from "node:async_hooks";
import { RoostError } from "../../protocol/index.js";

/** One write asked on an op's behalf: its commit, and how to take its change back out of memory. */
interface TrackedWrite {
  commit: Promise<Error | null>;
  undo: (() => void) | undefined;
}

/**
 * The writes one op asks for, wherever in the daemon they are asked (the store finds the op it runs
 * for through the async context, so no op can leave one out). The op is answered once they are all
 * committed; when one is not, the memory changes that went with it are undone in reverse order and
 * the op answers the store's error instead.
 */
export class OpWrites {
  private readonly writes: TrackedWrite[] = [];
  /** Closed once the op's handler is done: later writes in its async context are not its own. */
  private open = true;
  /** The store's group of this op's writes in the batch being gathered: its writes join it. */
  turnGroup: { batch: number; writes: unknown[]; done: Promise<void> } | null = null;

  /** How many writes the op asked for. */
  get asked(): number {
    return this.writes.length;
  }

  /** Runs the op's handler with this as its writes' owner. */
  run<T>(fn: () => T): T {
    return current.run(this, fn);
  }

  track(commit: Promise<void>, undo: (() => void) | undefined): void {
    this.writes.push({
      commit: commit.then(
        () => null,
        (err: Error) => err,
      ),
      undo,
    });
  }

  /**
   * Null when the op asked for no write (it answers at once); otherwise resolves to the first
   * failure of its writes (their changes undone by then), or null once all are committed.
   */
  settle(): Promise<Error | null> | null {
    this.open = false;
    if (this.writes.length === 0) return null;
    return Promise.all(this.writes.map((w) => w.commit)).then((errors) => {
      for (let i = this.writes.length - 1; i >= 0; i--) if (errors[i]) this.writes[i]!.undo?.();
      return errors.find((e) => e !== null) ?? null;
    });
  }

  /** Settles, then answers `value`, or the error that kept the op's change from being kept. */
  answer<T>(value: T): T | Promise<T> {
    const settled = this.settle();
    if (settled === null) return value;
    return settled.then((err) => {
      if (err) throw err instanceof RoostError ? err : new RoostError("internal", err.message);
      return value;
    });
  }

  /** The op whose handler is running now, if any and still open. */
  static current(): OpWrites | undefined {
    const writes = current.getStore();
    return writes?.open ? writes : undefined;
  }
}

const current = new AsyncLocalStorage<OpWrites>();
