import type Database from "better-sqlite3";

/**
 * A table of JSON records by a number that is never reused, even once the newest record is gone:
 * what the task board and the schedules keep.
 */
export class RecordTable<T extends { id: number }> {
  private next: number;
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    table: string,
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${table}_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.statements = {
      all: db.prepare(`SELECT data FROM ${table} ORDER BY id`),
      put: db.prepare(`INSERT OR REPLACE INTO ${table} (id, data) VALUES (?, ?)`),
      remove: db.prepare(`DELETE FROM ${table} WHERE id = ?`),
      nextId: db.prepare(`SELECT value FROM ${table}_meta WHERE key = 'next_id'`),
      setNextId: db.prepare(`INSERT OR REPLACE INTO ${table}_meta (key, value) VALUES ('next_id', ?)`),
    };
    const kept = this.statements.nextId.get() as { value: number } | undefined;
    this.next = Math.max(kept?.value ?? 1, ...this.all().map((r) => r.id + 1));
  }

  /** Every record, oldest first. */
  all(): T[] {
    return (this.statements.all.all() as { data: string }[]).map((r) => JSON.parse(r.data) as T);
  }

  /** The next record's id, kept at once. */
  newId(): number {
    const id = this.next++;
    this.statements.setNextId.run(this.next);
    return id;
  }

  put(record: T): void {
    this.statements.put.run(record.id, JSON.stringify(record));
  }

  remove(id: number): void {
    this.statements.remove.run(id);
  }

  /** Runs `fn` as one write. */
  transaction(fn: () => void): void {
    this.db.transaction(fn)();
  }
}
