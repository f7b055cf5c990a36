import type { Store } from "./store.js";

/** Makes `target` hold what `source` holds, in place: whoever holds the record sees it set back. */
function refill(target: object, source: object): void {
  for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key];
  Object.assign(target, source);
}

/**
 * A table of JSON records by a number that is never reused, even once the newest record is gone:
 * what the task board, the schedules, the standing orders and the concierge's settings keep. Read
 * at start; written through the store's writer (what one turn of the event loop writes is one
 * transaction). The table holds the records in memory too (`records`), and the last kept copy of
 * each: an op whose write fails has its change set back from it (a new record goes, a changed one
 * is as it was, a removed one is back), and `restored` hears of it, for what the owner derives.
 */
export class RecordTable<T extends { id: number }> {
  private next: number;
  /** The records as the daemon holds them, by id, oldest first: the owner changes them, then puts. */
  readonly records = new Map<number, T>();
  /** Each record as last committed. */
  private readonly kept = new Map<number, string>();
  private readonly names: { put: string; remove: string; setNextId: string };

  constructor(
    private readonly store: Store,
    table: string,
    private readonly restored: (id: number, record: T | undefined) => void = () => {},
  ) {
    const db = store.database;
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${table}_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.names = { put: `${table}.put`, remove: `${table}.remove`, setNextId: `${table}.setNextId` };
    store.define({
      [this.names.put]: `INSERT OR REPLACE INTO ${table} (id, data) VALUES (?, ?)`,
      [this.names.remove]: `DELETE FROM ${table} WHERE id = ?`,
      [this.names.setNextId]: `INSERT OR REPLACE INTO ${table}_meta (key, value) VALUES ('next_id', ?)`,
    });
    for (const { data } of db.prepare(`SELECT data FROM ${table} ORDER BY id`).all() as { data: string }[]) {
      const record = JSON.parse(data) as T;
      this.records.set(record.id, record);
      this.kept.set(record.id, data);
    }
    const kept = db.prepare(`SELECT value FROM ${table}_meta WHERE key = 'next_id'`).get() as
      | { value: number }
      | undefined;
    this.next = Math.max(kept?.value ?? 1, ...[...this.records.keys()].map((id) => id + 1));
  }

  /** Every record, oldest first. */
  all(): T[] {
    return [...this.records.values()];
  }

  /** The next record's id, kept at once (one that fails is skipped: ids are never reused). */
  newId(): number {
    const id = this.next++;
    this.store.writeLater([[this.names.setNextId, this.next]]);
    return id;
  }

  /** Holds the record and writes it. */
  put(record: T): void {
    this.records.set(record.id, record);
    const data = JSON.stringify(record);
    this.store.writeLater([[this.names.put, record.id, data]], {
      kept: () => this.kept.set(record.id, data),
      undo: () => this.restore(record.id),
    });
  }

  remove(id: number): void {
    this.records.delete(id);
    this.store.writeLater([[this.names.remove, id]], {
      kept: () => this.kept.delete(id),
      undo: () => this.restore(id),
    });
  }

  /** The record as last kept, back in memory. */
  private restore(id: number): void {
    const data = this.kept.get(id);
    const held = this.records.get(id);
    if (data === undefined) this.records.delete(id);
    else if (held) refill(held, JSON.parse(data) as T);
    else {
      // Back in its place: the records stay oldest first.
      const all = [...this.records.values(), JSON.parse(data) as T].sort((x, y) => x.id - y.id);
      this.records.clear();
      for (const record of all) this.records.set(record.id, record);
    }
    this.restored(id, this.records.get(id));
  }
}
