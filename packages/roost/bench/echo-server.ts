// The floor: a minimal JSON-lines server on a unix socket, run as its own process like the daemon.
// `report`-like requests are answered at once; `reply {to}` also forwards a `deliver` event to the
// connection that registered as `to` (the floor for reply→deliver). With `--durable DB`, a reply is
// first committed to SQLite as the store keeps one (the same row, WAL, `synchronous = NORMAL`): the
// durable floor, since the daemon delivers a reply only once it is committed.
import { createServer, type Socket } from "node:net";
import Database from "better-sqlite3";
import { WRITE_STATEMENTS } from "../src/daemon/store/store-writer.js";
import { encodeLine, LIMITS, LineDecoder } from "../src/protocol/index.js";

const path = process.argv[2]!;
const durableAt = process.argv.indexOf("--durable");
const byName = new Map<string, Socket>();

/** Commits the reply as the store's writer would, or nothing without `--durable`. */
function keeper(): (to: string, seq: number, text: string) => void {
  if (durableAt < 0) return () => {};
  const db = new Database(process.argv[durableAt + 1]!);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE IF NOT EXISTS replies (
    job_id TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL, mode TEXT,
    created_at TEXT NOT NULL, PRIMARY KEY (job_id, seq))`);
  const insert = db.prepare(WRITE_STATEMENTS.insertReply);
  return (to, seq, text) => insert.run(to, seq, text, null, new Date().toISOString());
}
const keep = keeper();
let seq = 0;

createServer((socket) => {
  const decoder = new LineDecoder(LIMITS.maxLineBytes);
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      const request = JSON.parse(line) as { id: number; op: string; args: Record<string, string> };
      if (request.op === "register") byName.set(request.args.name!, socket);
      if (request.op === "reply") {
        keep(request.args.to!, ++seq, request.args.text ?? "");
        byName
          .get(request.args.to!)
          ?.write(encodeLine({ event: "deliver", id: request.args.to, seq: 1, text: "x" }));
      }
      socket.write(encodeLine({ id: request.id, ok: true, result: {} }));
    }
  });
}).listen(path, () => process.stdout.write("ready\n"));
