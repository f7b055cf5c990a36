// One caller's write that cannot be made does not take another's with it; a request under way is
// run once, whoever else asks for it meanwhile.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { RequestsInFlight } from "../src/daemon/jobs/requests-in-flight.js";
import { Store } from "../src/daemon/store/store.js";

test("a failed write in a batch fails its own caller only; the others in the batch are committed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "roost-store-"));
  const store = new Store(join(dir, "roost.db"));
  try {
    store.database.exec(
      "CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, n INTEGER CHECK (n >= 0))",
    );
    store.define({ "probe.put": "INSERT OR REPLACE INTO probe (id, n) VALUES (?, ?)" });
    // Three callers in one turn of the event loop: one batch, the middle one bad.
    store.writeLater([["probe.put", 1, 1]]);
    store.writeLater([["probe.put", 2, -1]]);
    store.writeLater([["probe.put", 3, 3]]);
    await store.committed();
    const rows = store.database.prepare("SELECT id FROM probe ORDER BY id").all() as { id: number }[];
    assert.deepEqual(
      rows.map((r) => r.id),
      [1, 3],
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a request under way is run once: a second ask with its key gets the first one's answer", async () => {
  const inFlight = new RequestsInFlight();
  let runs = 0;
  let finish: (value: string) => void = () => {};
  const first = inFlight.run("k", () => {
    runs++;
    return new Promise<string>((resolve) => (finish = resolve));
  });
  const second = inFlight.get<string>("k");
  assert.ok(second);
  finish("the answer");
  assert.equal(await first, "the answer");
  assert.equal(await second, "the answer");
  assert.equal(runs, 1);
  // Once answered it is no longer under way (the store has its request id by then).
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(inFlight.get("k"), undefined);
  // A failure is shared too, and forgotten.
  const failed = inFlight.run("f", async () => {
    throw new Error("no");
  });
  await assert.rejects(inFlight.get("f")!, /no/);
  await assert.rejects(failed, /no/);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(inFlight.get("f"), undefined);
});
