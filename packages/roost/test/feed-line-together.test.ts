// A feed line asked together with another write (a reply's) is kept or lost with it: when that
// write fails, the line is taken back out of the feed and is not in the store.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { EventsFeed, type FeedEntry } from "../src/daemon/feed/events-feed.js";
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

test("a feed line kept together with a write that fails is taken back", async () => {
  await withFeed(async (store, feed) => {
    store.database.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, n INTEGER CHECK (n >= 0))");
    store.define({ "probe.put": "INSERT INTO probe (id, n) VALUES (?, ?)" });
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
    const kept = store.database.prepare("SELECT data FROM feed_events").all() as { data: string }[];
    assert.deepEqual(
      kept.map((r) => (JSON.parse(r.data) as { text: string }).text),
      ["with a good write"],
    );
  });
});
