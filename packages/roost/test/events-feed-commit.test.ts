// The events feed shows what was kept: an event is read (and heard of) once its line is committed,
// in cursor order even when lines committed together were published out of turn, and a line that
// goes with a write that fails is never shown.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { EventsFeed, type FeedEntry } from "../src/daemon/feed/events-feed.js";
import { OpWrites } from "../src/daemon/store/op-writes.js";
import { Store } from "../src/daemon/store/store.js";

const entry = (text: string): FeedEntry => ({
  kind: "job",
  why: "test",
  text,
  who: "user",
  whoId: null,
  jobs: [],
});

async function withFeed(fn: (store: Store, feed: EventsFeed) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "roost-feed-"));
  const store = new Store(join(dir, "roost.db"));
  try {
    await fn(store, new EventsFeed(store, () => new Date().toISOString()));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("feed events are read once committed, in cursor order though published out of turn", async () => {
  await withFeed(async (store, feed) => {
    const heard: string[] = [];
    feed.listeners.push((event) => heard.push(event.text));
    // One op's two lines go in one group, another's between them in a group after it: the batch's
    // groups are answered in order, so "third" is published before "second".
    const op = new OpWrites();
    op.run(() => feed.add(entry("first")));
    feed.add(entry("second"));
    op.run(() => feed.add(entry("third")));
    assert.deepEqual(feed.read({}).events, [], "nothing is read before it is committed");
    await store.committed();
    const read = feed.read({});
    assert.deepEqual(
      read.events.map((e) => e.text),
      ["first", "second", "third"],
    );
    assert.deepEqual(
      read.events.map((e) => e.id),
      [1, 2, 3],
    );
    assert.deepEqual(heard.sort(), ["first", "second", "third"]);
    assert.deepEqual(
      feed.read({ after: 1 }).events.map((e) => e.text),
      ["second", "third"],
    );
  });
});

test("a feed line kept together with a write that fails is never shown", async () => {
  await withFeed(async (store, feed) => {
    store.database.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, n INTEGER CHECK (n >= 0))");
    store.define({ "probe.put": "INSERT INTO probe (id, n) VALUES (?, ?)" });
    const heard: string[] = [];
    feed.listeners.push((event) => heard.push(event.text));
    const bad = store.together(() => {
      feed.add(entry("with the bad write"));
      return store.writeLater([["probe.put", 1, -1]]);
    });
    await assert.rejects(bad, /CHECK constraint/);
    const good = store.together(() => {
      feed.add(entry("with a good write"));
      return store.writeLater([["probe.put", 2, 2]]);
    });
    await good;
    assert.deepEqual(
      feed.read({}).events.map((e) => e.text),
      ["with a good write"],
    );
    assert.deepEqual(heard, ["with a good write"]);
    const kept = store.database.prepare("SELECT data FROM feed_events").all() as { data: string }[];
    assert.deepEqual(
      kept.map((r) => (JSON.parse(r.data) as { text: string }).text),
      ["with a good write"],
    );
  });
});
