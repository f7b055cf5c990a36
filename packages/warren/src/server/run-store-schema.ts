/** The run store's format: a store written in another is refused, never misread. */
export const STORE_FORMAT = 1;

/**
 * The tables of the run store. `runs` holds each run's request and its latest view (status,
 * scores...); `run_events` its event log in chunks, each a JSON array, one chunk per write (a rowid
 * table: its rows are large, and SQLite writes large rows faster there than without rowid); `instances`
 * each server that used the folder and when it was last heard from; `meta` the next run number,
 * so ids are never reused.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('format', ${STORE_FORMAT}), ('next_run', 1);
CREATE TABLE IF NOT EXISTS instances (
  id INTEGER PRIMARY KEY,
  pid INTEGER NOT NULL,
  started_unix REAL NOT NULL,
  seen_unix REAL NOT NULL,
  stopped_unix REAL
);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  scenario TEXT NOT NULL,
  seed INTEGER NOT NULL,
  request TEXT NOT NULL,
  instance INTEGER NOT NULL REFERENCES instances (id),
  view TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'created',
  ended_order INTEGER
);
CREATE TABLE IF NOT EXISTS run_events (
  run_id TEXT NOT NULL,
  first_cursor INTEGER NOT NULL,
  last_cursor INTEGER NOT NULL,
  events TEXT NOT NULL,
  UNIQUE (run_id, first_cursor)
);
`;
