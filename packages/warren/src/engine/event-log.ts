import { createHash, type Hash } from "node:crypto";
import type { RunEvent } from "./types.js";

/**
 * A run's event log. Cursors count from 1 so `since=0` means from the start. The simulation's own
 * events are hashed line by line as they arrive; the log hash is the run's fingerprint.
 */
export class EventLog {
  private readonly events: RunEvent[] = [];
  private readonly hash: Hash = createHash("sha256");
  private cursor = 0;
  private pending = "";
  private readonly listeners = new Set<(event: RunEvent) => void>();

  constructor(private readonly retain = true) {}

  append(sim: boolean, simTimeMs: number, kind: string, data: Record<string, unknown>): RunEvent {
    const event: RunEvent = { cursor: ++this.cursor, sim, sim_time_ms: simTimeMs, kind, data };
    if (sim) {
      // Hashing in chunks: one update per line costs more than the hashing itself.
      this.pending += `${simTimeMs} ${kind} ${JSON.stringify(data)}\n`;
      if (this.pending.length > 65_536) this.flush();
    }
    if (this.retain) this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  get latest(): number {
    return this.cursor;
  }

  /** Events after `cursor`, at most `limit` of them. */
  since(cursor: number, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    // Cursors are contiguous from 1, so the event with cursor c sits at index c - 1.
    const start = Math.max(0, Math.floor(cursor));
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
