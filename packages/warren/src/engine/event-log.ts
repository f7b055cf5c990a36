import { createHash, type Hash } from "node:crypto";
import { USAGE_CHARS } from "./command-usage.js";
import { eventDataJson } from "./event-json.js";
import type { RunEvent } from "./events.js";
import type { Receipt, Usage } from "./types.js";

/** What an event's fixed fields (cursor, sim, time, the field names) add to its data's size. */
const EVENT_OVERHEAD_CHARS = 64;
/** What a receipt's fixed fields add to its id and reason. */
const RECEIPT_OVERHEAD_CHARS = 120;

/**
 * A run's event log. Cursors count from 1 so `since=0` means from the start. The simulation's own
 * events are hashed line by line as they arrive; the log hash is the run's fingerprint. Only the
 * latest `maxRetained` events are kept in memory, however long the run: older ones are dropped
 * (a reader asking for them learns where the kept ones start from `oldestRetained`). It counts
 * the size of what it keeps (`retainedBytes`, in JSON characters) for the run's byte budget.
 */
export class EventLog {
  private events: RunEvent[] = [];
  /** The size of each kept event, beside it. */
  private sizes: number[] = [];
  private keptBytes = 0;
  /** Cursor of events[0]. */
  private first = 1;
  private readonly hash: Hash = createHash("sha256");
  private cursor = 0;
  private pending = "";
  private readonly listeners = new Set<(event: RunEvent) => void>();

  constructor(private readonly maxRetained = Number.POSITIVE_INFINITY) {}

  /**
   * `remote` (a remote command's receipt and the usage it reported, on its decision) is kept
   * beside the data, out of the hash.
   */
  append(
    sim: boolean,
    simTimeMs: number,
    kind: string,
    data: object,
    remote?: { receipt: Receipt; usage?: Usage },
  ): RunEvent {
    // The log stores what it is given; the simulation and the run type each kind's data.
    const event = { cursor: ++this.cursor, sim, sim_time_ms: simTimeMs, kind, data } as RunEvent;
    const receipt = remote?.receipt;
    if (receipt && event.sim) {
      event.receipt = receipt;
      if (remote.usage) event.usage = remote.usage;
    }
    let line: string | undefined;
    if (sim) {
      // Hashing in chunks: one update per line costs more than the hashing itself.
      line = `${simTimeMs} ${kind} ${eventDataJson(kind, data)}\n`;
      this.pending += line;
      if (this.pending.length > 65_536) this.flush();
    }
    if (this.maxRetained > 0) {
      // The line hashed is the event's data as JSON already: its size costs nothing more.
      const size =
        (line?.length ?? kind.length + JSON.stringify(data).length) +
        EVENT_OVERHEAD_CHARS +
        (receipt ? RECEIPT_OVERHEAD_CHARS + receipt.command_id.length + receipt.outcome_reason.length : 0) +
        (remote?.usage ? USAGE_CHARS : 0);
      this.events.push(event);
      this.sizes.push(size);
      this.keptBytes += size;
      // Dropped in chunks of a quarter of the window: one shift per event would cost O(n) each.
      if (this.events.length > this.maxRetained) {
        const drop = Math.max(1, this.events.length - Math.floor(this.maxRetained * 0.75));
        for (let i = 0; i < drop; i++) this.keptBytes -= this.sizes[i]!;
        this.events = this.events.slice(drop);
        this.sizes = this.sizes.slice(drop);
      }
      this.first = this.events[0]!.cursor;
    } else {
      this.first = this.cursor + 1;
    }
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** The size of the events kept, in JSON characters. */
  get retainedBytes(): number {
    return this.keptBytes;
  }

  get latest(): number {
    return this.cursor;
  }

  /** The cursor of the oldest event still kept (latest + 1 when none is). */
  get oldestRetained(): number {
    return this.first;
  }

  /** Kept events after `cursor`, at most `limit` of them. */
  since(cursor: number, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    // Cursors are contiguous, so the event with cursor c sits at index c - first.
    const start = Math.max(0, Math.floor(cursor) + 1 - this.first);
    return this.events.slice(start, start + Math.min(limit, this.events.length));
  }

  /** The sha256 of the simulation events so far. */
  digest(): string {
    this.flush();
    return "sha256:" + this.hash.copy().digest("hex");
  }

  private flush(): void {
    if (this.pending === "") return;
    this.hash.update(this.pending);
    this.pending = "";
  }

  subscribe(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
