/**
 * The run store's writer: a worker thread that owns the writes of runs as they go (events, views,
 * ends), so the engine's thread never waits on the disk: it hands over each batch and moves on.
 * Each message is one transaction of named statements; messages that queued while it wrote go
 * together. Plain JavaScript run with `eval`, so it works the same from the sources and the build.
 */
export const RUN_STORE_WRITER_SOURCE = `
const { parentPort, receiveMessageOnPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 5000");
const statements = {};
for (const [name, sql] of Object.entries(workerData.statements)) statements[name] = db.prepare(sql);
const write = db.transaction((writes) => {
  for (const [name, ...params] of writes) statements[name].run(...params);
});
parentPort.on("message", (first) => {
  const messages = [first];
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort))
    messages.push(next.message);
  const writes = messages.flatMap((m) => m.writes || []);
  try {
    if (writes.length) write(writes);
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
  if (messages.some((m) => m.close)) {
    db.close();
    parentPort.postMessage({ closed: true });
  }
});
`;

/** Every write the writer makes, by name: it prepares each once. */
export const RUN_STORE_WRITES = {
  chunk: "INSERT INTO run_events (run_id, first_cursor, last_cursor, events) VALUES (?, ?, ?, ?)",
  view: "UPDATE runs SET view = ?, status = ? WHERE run_id = ?",
  ended:
    "UPDATE runs SET ended_order = (SELECT COALESCE(MAX(ended_order), 0) + 1 FROM runs) WHERE run_id = ?",
  seen: "UPDATE instances SET seen_unix = ? WHERE id = ?",
  stopped: "UPDATE instances SET stopped_unix = ?, seen_unix = ? WHERE id = ?",
  forgetEvents: "DELETE FROM run_events WHERE run_id = ?",
  forgetRun: "DELETE FROM runs WHERE run_id = ?",
} as const;

export type RunStoreWrite = [keyof typeof RUN_STORE_WRITES, ...(string | number | null)[]];
