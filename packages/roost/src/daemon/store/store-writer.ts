/**
 * The store's writer: a worker thread that owns the database's writes, so the daemon's event loop
 * never waits on the disk (a checkpoint or a slow write can take a hundred milliseconds). It runs
 * each batch of statements in one transaction and says when it is committed. A batch is made of
 * groups (what each caller asked for together); when the batch fails, each group is tried alone, so
 * one group's failure (a full disk for a big write, a bad value) does not take the others with it.
 * Plain JavaScript, run with `eval`, so it works the same from the sources and from the build.
 */
export const STORE_WRITER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 5000");
const statements = {};
for (const [name, sql] of Object.entries(workerData.statements)) statements[name] = db.prepare(sql);
const run = db.transaction((writes) => {
  for (const [name, ...params] of writes) statements[name].run(...params);
});
parentPort.on("message", (message) => {
  if (message.define) {
    for (const [name, sql] of Object.entries(message.define)) statements[name] = db.prepare(sql);
    return;
  }
  if (message.close) {
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    run(message.groups.flat());
    parentPort.postMessage({ batch: message.batch, errors: null });
  } catch {
    const errors = message.groups.map((group) => {
      try {
        run(group);
        return null;
      } catch (err) {
        return String((err && err.message) || err);
      }
    });
    parentPort.postMessage({ batch: message.batch, errors });
  }
});
`;

/** Every write the daemon makes, by name: the writer prepares each once. */
export const WRITE_STATEMENTS = {
  putJob: "INSERT OR REPLACE INTO jobs (id, data) VALUES (?, ?)",
  putSpawn: "INSERT OR REPLACE INTO job_spawn (id, command, env) VALUES (?, ?, ?)",
  deleteSpawn: "DELETE FROM job_spawn WHERE id = ?",
  deleteJob: "DELETE FROM jobs WHERE id = ?",
  deleteReplies: "DELETE FROM replies WHERE job_id = ?",
  deleteReplyIds: "DELETE FROM reply_request_ids WHERE job_id = ?",
  deleteDispatchIds: "DELETE FROM dispatch_request_ids WHERE job_id = ?",
  insertReply: "INSERT INTO replies (job_id, seq, text, mode, created_at) VALUES (?, ?, ?, ?, ?)",
  insertItem:
    "INSERT INTO replies (job_id, seq, text, mode, kind, sender, relation, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ackUpTo: "DELETE FROM replies WHERE job_id = ? AND seq <= ? AND kind IS NULL",
  ackExact: "DELETE FROM replies WHERE job_id = ? AND seq = ?",
  insertReplyId: "INSERT OR REPLACE INTO reply_request_ids (job_id, request_id, seq, n) VALUES (?, ?, ?, ?)",
  trimReplyIds: "DELETE FROM reply_request_ids WHERE job_id = ? AND n <= ?",
  insertDispatch:
    "INSERT OR REPLACE INTO dispatch_request_ids (request_id, job_id, created_at) VALUES (?, ?, ?)",
} as const;

/** A write: a statement's name (one of these, or one a part of the daemon defined) and its parameters. */
export type Write = [string, ...(string | number | null)[]];
