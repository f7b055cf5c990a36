import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import Database from "better-sqlite3";
import { type RawConnection, TEST_PROFILES } from "./helpers/daemon.js";
import { peersSuite } from "./helpers/peers-suite.js";
import { waitFor } from "./helpers/wait-for.js";

const suite = peersSuite({ mute: TEST_PROFILES.mute });
const { clock, session } = suite;

const digest = (conn: RawConnection, timeoutMs = 10_000) =>
  conn.nextEvent((e) => e.event === "deliver" && e.kind === "digest", timeoutMs);

const ack = (conn: RawConnection, id: string, seq: number) =>
  conn.request("ack", { id, token: (conn as RawConnection & { token: string }).token, seq, exact: true });

/**
 * Whether an acked item is gone from the store on disk. An ack is kept as it comes, not before it is
 * answered: a daemon killed a moment after may send the item again, as the protocol allows.
 */
const ackOnDisk = (id: string, seq: number) => () => {
  const db = new Database(join(suite.daemon.stateDir, "roost.db"), { readonly: true });
  try {
    return db.prepare("SELECT 1 FROM replies WHERE job_id = ? AND seq = ?").get(id, seq) === undefined;
  } finally {
    db.close();
  }
};

describe("standing orders (M46) on the schedules' clock", () => {
  test("add, list, rm, applied at their edges; an every-30m order fires once per due time across a restart", async () => {
    let hub = await suite.daemon.connect();
    const on = await hub.request("concierge", { action: "on", launch: { profile: "mute" } });
    const cid = on.result.job.id as string;
    const { id: other } = await suite.hub.call("dispatch", { profile: "mute", name: "other" });
    let concierge = await session(cid, { state: "working", status: "idle", agentItems: true });
    const otherConn = await session(other);

    for (const when of ["every 30", "hourly", 'cron "* *"', "daily 25:00"]) {
      const bad = await hub.request("concierge-order", { action: "add", text: "x", when });
      assert.equal(bad.code, "bad_request", when);
    }
    assert.equal((await hub.request("concierge-order", { action: "add", text: " " })).code, "bad_request");
    assert.equal((await otherConn.request("concierge-order", { action: "list" })).code, "unsupported");

    const added = await hub.request("concierge-order", {
      action: "add",
      text: "check the build",
      when: "every 30m",
    });
    assert.equal(added.ok, true, JSON.stringify(added));
    const order = added.result.order;
    assert.deepEqual([order.by, order.when, order.count, order.lastAt], ["user", "every 30m", 0, null]);
    assert.ok(order.nextAt);
    const mine = await concierge.request("concierge-order", { action: "add", text: "say hello" });
    assert.equal(mine.result.order.by, "concierge");
    assert.equal(mine.result.order.nextAt, null);
    assert.equal(
      (await concierge.request("concierge-order", { action: "rm", id: order.id })).code,
      "unsupported",
    );
    assert.equal((await hub.request("concierge-order", { action: "rm", id: 999 })).code, "not_found");
    assert.equal(
      (await hub.request("concierge-order", { action: "applied", id: order.id })).code,
      "unsupported",
    );

    // At most 50.
    for (let i = 3; i <= 50; i++)
      assert.equal((await hub.request("concierge-order", { action: "add", text: `order ${i}` })).ok, true);
    const full = await hub.request("concierge-order", { action: "add", text: "one more" });
    assert.equal(full.code, "full");
    for (let id = 3; id <= 50; id++) await hub.request("concierge-order", { action: "rm", id });
    const dropped = await concierge.request("concierge-order", { action: "rm", id: mine.result.order.id });
    assert.equal(dropped.ok, true);
    const listed = (await hub.request("concierge-order", { action: "list" })).result.orders;
    assert.deepEqual(
      listed.map((o: { id: number }) => o.id),
      [order.id],
    );
    assert.equal((await hub.request("concierge", { action: "status" })).result.orders, 1);
    // What these changes set off (the other session's start) is digested and acked first.
    const early = await digest(concierge);
    await ack(concierge, cid, early.seq);

    // Its time comes: a digest with why order and a Due now section.
    clock.advance(30 * 60_000);
    const due = await digest(concierge);
    assert.equal(due.why, "order");
    assert.match(due.text, /## Due now\n- #\d+ \[every 30m/);
    assert.match(due.text, /check the build/);
    await ack(concierge, cid, due.seq);
    const applied = await concierge.request("concierge-order", {
      action: "applied",
      id: order.id,
      text: "built fine",
    });
    assert.equal(applied.result.order.count, 1);
    assert.ok(applied.result.order.lastAt);
    const movedOn = applied.result.order.nextAt;
    assert.notEqual(movedOn, order.nextAt);
    const { events } = (await hub.request("events", { limit: 1000 })).result;
    const whys = events
      .filter((e: { kind: string }) => e.kind === "concierge")
      .map((e: { why: string }) => e.why);
    for (const why of ["order-kept", "order-dropped", "order"]) assert.ok(whys.includes(why), why);
    const appliedEvent = events.findLast((e: { why: string }) => e.why === "order");
    assert.equal(appliedEvent.text, `#${order.id} built fine`);

    // The daemon restarts: the order is kept, and the due time that was reached is not fired again.
    concierge.close();
    hub.close();
    await suite.daemon.kill("SIGKILL");
    await suite.daemon.start();
    await suite.reconnectHub();
    hub = await suite.daemon.connect();
    suite.conns.push(hub);
    concierge = await session(cid, { state: "working", status: "idle", agentItems: true });
    const kept = (await hub.request("concierge-order", { action: "list" })).result.orders;
    assert.deepEqual(
      kept.map((o: { id: number; nextAt: string; count: number }) => [o.id, o.nextAt, o.count]),
      [[order.id, movedOn, 1]],
    );
    await assert.rejects(
      concierge.nextEvent((e) => e.event === "deliver" && e.why === "order", 3000),
      /no event/,
    );
    clock.advance(30 * 60_000);
    const next = await concierge.nextEvent((e) => e.event === "deliver" && e.why === "order", 10_000);
    assert.match(next.text, /check the build/);
    await ack(concierge, cid, next.seq);
    // The crash below is to come before the next digest's ack only, not this one's.
    await waitFor("the ack of the last digest on disk", ackOnDisk(cid, next.seq));
    const after = (await hub.request("concierge-order", { action: "list" })).result.orders[0];
    assert.notEqual(after.nextAt, movedOn);

    // Due again, and the daemon dies before the concierge acked it: the same digest comes again, once.
    clock.advance(30 * 60_000);
    const unacked = await concierge.nextEvent((e) => e.event === "deliver" && e.why === "order", 10_000);
    concierge.close();
    await suite.daemon.kill("SIGKILL");
    await suite.daemon.start();
    await suite.reconnectHub();
    concierge = await session(cid, { state: "working", status: "idle", agentItems: true });
    const resent = await concierge.nextEvent((e) => e.event === "deliver" && e.why === "order", 10_000);
    assert.equal(resent.seq, unacked.seq);
    await ack(concierge, cid, resent.seq);
    await assert.rejects(
      concierge.nextEvent((e) => e.event === "deliver" && e.why === "order", 3000),
      /no event/,
    );
  });
});
