/**
 * The store's writer: a worker thread that owns the database's writes, so the daemon's event loop
 * never waits on the disk (a checkpoint or a slow write can take a hundred milliseconds). It runs
 * each batch of statements in one transaction and says when it is committed; batches that queued
 * while it wrote go together in the next one. A batch is made of groups (what each caller asked for
 * together); when the transaction fails, each group is tried alone, so one group's failure (a full
 * disk for a big write, a bad value) does not take the others with it. A database locked by another
 * process fails them all at once, and until a write goes through again the next ones wait for the
 * lock a moment only: each would otherwise wait the whole busy timeout again, and a person's reply
 * behind them would wait for all of those. A failure is told with SQLite's code (a full disk and a
 * read-only database are answered with a code of their own).
 * Plain JavaScript, run with `eval`, so it works the same from the sources and from the build.
 */
export const STORE_WRITER_SOURCE = `
const { parentPort, receiveMessageOnPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
const BUSY_TIMEOUT_MS = 5000;
const BUSY_TIMEOUT_WHILE_LOCKED_MS = 100;
db.pragma("busy_timeout = " + BUSY_TIMEOUT_MS);
let locked = false;
function setLocked(now) {
  if (now === locked) return;
  locked = now;
  db.pragma("busy_timeout = " + (now ? BUSY_TIMEOUT_WHILE_LOCKED_MS : BUSY_TIMEOUT_MS));
}
const statements = {};
for (const [name, sql] of Object.entries(workerData.statements)) statements[name] = db.prepare(sql);
const run = db.transaction((writes) => {
  for (const [name, ...params] of writes) statements[name].run(...params);
});
function write(batches) {
  const groups = batches.flatMap((b) => b.groups);
  try {
    run(groups.flat());
    setLocked(false);
    for (const b of batches) parentPort.postMessage({ batch: b.batch, errors: null });
  } catch (err) {
    const busy = err && err.code === "SQLITE_BUSY";
    setLocked(busy);
    for (const b of batches) {
      const errors = b.groups.map((group) => {
        if (busy) return { message: String(err.message), code: err.code };
        try {
          run(group);
          return null;
        } catch (e) {
          return { message: String((e && e.message) || e), code: e && e.code };
        }
      });
      parentPort.postMessage({ batch: b.batch, errors });
    }
  }
}
parentPort.on("message", (first) => {
  // What queued while the last transaction ran, in order: writes side by side go in one transaction.
  const messages = [first];
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort))
    messages.push(next.message);
  let writes = [];
  for (const message of messages) {
    if (message.groups) {
      writes.push(message);
      continue;
    }
    if (writes.length) write(writes);
    writes = [];
    if (message.define) {
      for (const [name, sql] of Object.entries(message.define)) statements[name] = db.prepare(sql);
    } else if (message.close) {
      db.close();
      parentPort.postMessage({ closed: true });
    }
  }
  if (writes.length) write(writes);
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
  insertRemoved: "INSERT OR REPLACE INTO removed_jobs (id, removed_at) VALUES (?, ?)",
  deleteRemoved: "DELETE FROM removed_jobs WHERE id = ?",
  insertDispatch:
    "INSERT OR REPLACE INTO dispatch_request_ids (request_id, job_id, created_at) VALUES (?, ?, ?)",
} as const;

/** A write: a statement's name (one of these, or one a part of the daemon defined) and its parameters. */
export type Write = [string, ...(string | number | null)[]];
