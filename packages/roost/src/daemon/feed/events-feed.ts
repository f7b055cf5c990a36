import { type EventsResult, type FeedEvent, LIMITS } from "../../protocol/index.js";
import type { Store } from "../store/store.js";

const TRIM_EVERY = 50;

/** Who did something, as the feed says it: `user`, or a job's name with its id. */
export interface FeedActor {
  who: string;
  whoId: string | null;
}

export const USER: FeedActor = { who: "user", whoId: null };

/** What a part of the daemon says happened; the feed gives it its cursor and time. */
export type FeedEntry = Omit<FeedEvent, "id" | "at"> & { at?: string };

/**
 * The events feed (what the `events` op reads; not the events pushed to connections): the last 1000
 * events, kept in the store (they outlive a restart), each with a cursor that only grows. Readers
 * page through it with `after`. Read at start; written through the store's writer, off the event
 * loop.
 */
export class EventsFeed {
  private readonly kept: FeedEvent[];
  /** The next event's cursor: past every one ever written, trimmed ones included. */
  private nextId: number;
  /** Hear of every event as it is added (the concierge's digests). */
  readonly listeners: ((event: FeedEvent) => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly now: () => string,
  ) {
    const db = store.database;
    db.exec(
      "CREATE TABLE IF NOT EXISTS feed_events (id INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)",
    );
    store.define({
      "feed.insert": "INSERT INTO feed_events (id, data) VALUES (?, ?)",
      "feed.trim": "DELETE FROM feed_events WHERE id <= ?",
    });
    const rows = db
      .prepare("SELECT id, data FROM feed_events ORDER BY id DESC LIMIT ?")
      .all(LIMITS.eventsKept) as { id: number; data: string }[];
    this.kept = rows.reverse().map((r) => ({ ...(JSON.parse(r.data) as FeedEvent), id: r.id }));
    const used = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'feed_events'").get() as
      | { seq: number }
      | undefined;
    this.nextId = Math.max(used?.seq ?? 0, this.kept.at(-1)?.id ?? 0) + 1;
  }

  add(entry: FeedEntry): FeedEvent {
    const at = entry.at ?? this.now();
    const body = { ...entry, at };
    const id = this.nextId++;
    const event: FeedEvent = { id, ...body };
    this.store.writeLater([["feed.insert", id, JSON.stringify(body)]], {
      lost: () => {
        const at = this.kept.indexOf(event);
        if (at >= 0) this.kept.splice(at, 1);
      },
    });
    // The table is trimmed now and then (a write less per event); the feed reads the last 1000.
    if (id % TRIM_EVERY === 0) this.store.writeLater([["feed.trim", id - LIMITS.eventsKept]]);
    this.kept.push(event);
    if (this.kept.length > LIMITS.eventsKept) this.kept.splice(0, this.kept.length - LIMITS.eventsKept);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /**
   * After a cursor: the oldest `limit` events after it. Without one: the newest `limit`. `jobId`
   * keeps the events about that job. The cursor returned is where the next read goes on from.
   */
  read(options: { after?: number; limit?: number; jobId?: string }): EventsResult {
    const limit = options.limit ?? LIMITS.eventsKept;
    const head = this.kept.at(-1)?.id ?? 0;
    const about = (e: FeedEvent) => options.jobId === undefined || e.jobs.includes(options.jobId);
    if (options.after === undefined) {
      const events = this.kept.filter(about).slice(-limit);
      return { events, cursor: head };
    }
    const after = options.after;
    const events: FeedEvent[] = [];
    let cursor = Math.max(after, 0);
    for (const e of this.kept) {
      if (e.id <= after) continue;
      if (events.length >= limit) break;
      cursor = e.id;
      if (about(e)) events.push(e);
    }
    // Everything was read: the next read goes on from the newest event.
    if (events.length < limit) cursor = Math.max(after, head);
    return { events, cursor };
  }
}
