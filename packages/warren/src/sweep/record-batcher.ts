import type { RunRecord } from "./run-record.js";

/**
 * Gathers the records that finish together (a pool's batch, a burst from the queue) and hands
 * them on in one write once the current burst of events is over, rather than a write per run.
 */
export class RecordBatcher {
  private pending: RunRecord[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(private readonly write: (records: RunRecord[]) => void) {}

  add(record: RunRecord): void {
    this.pending.push(record);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is pending now. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    this.write(records);
  }
}
