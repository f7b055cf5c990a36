import type { Store } from "./store.js";

/**
 * A table of JSON records by a number that is never reused, even once the newest record is gone:
 * what the task board and the schedules keep. Read at start; written through the store's writer
 * (what one turn of the event loop writes is one transaction).
 */
export class RecordTable<T extends { id: number }> {
  private next: number;
  private readonly records: T[];
  private readonly names: { put: string; remove: string; setNextId: string };

  constructor(
    private readonly store: Store,
    table: string,
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
    this.records = (db.prepare(`SELECT data FROM ${table} ORDER BY id`).all() as { data: string }[]).map(
      (r) => JSON.parse(r.data) as T,
    );
    const kept = db.prepare(`SELECT value FROM ${table}_meta WHERE key = 'next_id'`).get() as
      | { value: number }
      | undefined;
    this.next = Math.max(kept?.value ?? 1, ...this.records.map((r) => r.id + 1));
  }

  /** Every record as it was at start, oldest first. */
  all(): T[] {
    return this.records;
  }

  /** The next record's id, kept at once. */
  newId(): number {
    const id = this.next++;
    this.store.writeLater([[this.names.setNextId, this.next]]);
    return id;
  }

  put(record: T): void {
    this.store.writeLater([[this.names.put, record.id, JSON.stringify(record)]]);
  }

  remove(id: number): void {
    this.store.writeLater([[this.names.remove, id]]);
  }
}
