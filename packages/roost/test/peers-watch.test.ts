import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ForegroundPeer } from "../src/client/foreground-peer.js";
import { takeWriterLock, writerLockPath } from "../src/home/writer-lock.js";
import { type DeliverEvent, RoostError } from "../src/protocol/index.js";
import { CLI, type RawConnection, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { killHost } from "./helpers/faults.js";
import { python, rowOf } from "./helpers/fixture-agents.js";
import { peersSuite } from "./helpers/peers-suite.js";

const suite = peersSuite({ mute: TEST_PROFILES.mute });
const { clock, conns, session, reconnectHub } = suite;

const sdk = fileURLToPath(new URL("../sdk/python", import.meta.url));

const notice = (conn: RawConnection, timeoutMs = 5000) =>
  conn.nextEvent((e) => e.event === "deliver" && e.kind === "notice", timeoutMs);

describe("watches, foreground peers and the events feed", () => {
  let w: string;
  let t: string;

  test("watch: fired at once when already so; fires across a daemon restart; 20 per session; 12 hours", async () => {
    ({ id: w } = await suite.hub.call("dispatch", { profile: "mute", name: "watcher" }));
    let wc = await session(w);
    const spawned = await wc.request("spawn", { task: "work", name: "target" });
    t = spawned.result.id;
    let tc = await session(t, { state: "working", status: "busy", agentItems: true });

    const idle = await wc.request("watch", { id: "target", when: "idle" });
    assert.deepEqual(idle.result, { id: t, name: "target", when: "idle", fired: false });
    assert.equal((await wc.request("watch", { id: t, when: "ended" })).result.fired, false);
    for (const [args, code] of [
      [{ id: t, when: "soon" }, "bad_request"],
      [{ id: "nobody", when: "idle" }, "not_found"],
      [{ id: w, when: "idle" }, "bad_request"],
    ] as const)
      assert.equal((await wc.request("watch", args)).code, code, JSON.stringify(args));

    // The daemon dies and comes back; the watches are still there.
    wc.close();
    tc.close();
    await suite.daemon.kill("SIGKILL");
    await suite.daemon.start();
    await reconnectHub();
    wc = await session(w);
    tc = await session(t, { state: "done", status: "idle", agentItems: true });
    const fired = await notice(wc);
    assert.equal(fired.from, "target");
    assert.equal(fired.relation, "child");
    assert.match(
      fired.text,
      /kind="notice">\ntarget \([0-9a-f]{8}\) is idle \(done\): your watch \(idle\) fired\./,
    );
    await assert.rejects(notice(wc, 300), /no event/, "once");

    // Already so: fired, and the notice comes at once.
    assert.equal((await wc.request("watch", { id: t, when: "idle" })).result.fired, true);
    await notice(wc);
    await suite.hub.call("stop", { id: t });
    const ended = await notice(wc);
    assert.match(ended.text, /has ended \(stopped\)/);

    // 20 watches per session: 10 children, idle and ended each.
    const kids: string[] = [];
    for (let i = 0; i < 8; i++)
      kids.push((await wc.request("spawn", { task: "w", name: `k${i}` })).result.id);
    for (const k of kids) await session(k, { state: "working", status: "busy", agentItems: true });
    const others = [...kids];
    const two = await session(kids[0]!);
    for (let i = 0; i < 2; i++) {
      const g = (await two.request("spawn", { task: "w", name: `g${i}` })).result.id as string;
      await session(g, { state: "working", status: "busy", agentItems: true });
      others.push(g);
    }
    let count = 0;
    for (const k of others)
      for (const when of ["idle", "ended"]) {
        const answer = await wc.request("watch", { id: k, when });
        assert.equal(answer.ok, true, answer.error);
        count++;
      }
    assert.equal(count, 20);
    clock.advance(61_000); // past the tree's 10 spawns a minute
    const fresh = (await two.request("spawn", { task: "w", name: "k-last" })).result.id as string;
    assert.equal(
      (await wc.request("watch", { id: kids[0], when: "idle" })).ok,
      true,
      "the same watch again is fine",
    );
    const over = await wc.request("watch", { id: fresh, when: "idle" });
    assert.equal(over.code, "limit", JSON.stringify(over));
    // 12 hours on, they have expired: none fires, and there is room again.
    clock.advance(12 * 60 * 60 * 1000 + 1000);
    await suite.hub.call("stop", { id: others[0]! });
    await assert.rejects(notice(wc, 500), /no event/, "an expired watch does not fire");
    assert.equal((await wc.request("watch", { id: fresh, when: "idle" })).ok, true);
  });

  test("peer_register: only for the pid the session's writer lock names, while it lives", async () => {
    const session = `${suite.daemon.home}/sessions/one.jsonl`;
    const raw = await suite.daemon.connect();
    conns.push(raw);
    const register = (args: Record<string, unknown>) =>
      raw.request("peer_register", {
        session,
        name: "me",
        cwd: suite.daemon.home,
        pid: process.pid,
        ...args,
      });
    assert.equal((await register({})).code, "unauthorized", "no lock");
    const lock = takeWriterLock(suite.daemon.stateDir, session, 999_999_99);
    assert.equal((await register({ pid: 999_999_99 })).code, "unauthorized", "its holder does not run");
    assert.equal((await register({})).code, "unauthorized", "the lock names another pid");
    lock.taken && lock.release();
    const mine = takeWriterLock(suite.daemon.stateDir, session);
    assert.equal(mine.taken, true);
    const other = takeWriterLock(suite.daemon.stateDir, session, process.ppid);
    assert.deepEqual(other, { taken: false, holder: process.pid }, "a live holder keeps it");
    assert.equal((await register({ pid: "1" })).code, "bad_request");
    const ok = await register({});
    assert.match(ok.result.id, /^f[0-9a-f]{7}$/);
    assert.match(writerLockPath(suite.daemon.stateDir, session), /roost\/session-locks\/[0-9a-f]{32}\.json$/);
    // A registered foreground session is refused the hub's ops and the feed.
    assert.equal((await raw.request("events", {})).code, "unsupported");
    assert.equal((await raw.request("list", {})).code, "unsupported");
    raw.close();
    mine.taken && mine.release();
  });

  test("foreground peers on both clients: spawn, get the child's report, messages; no mailbox; a kept report when it is back", async () => {
    const items: DeliverEvent[] = [];
    const key = `${suite.daemon.home}/sessions/fg.jsonl`;
    let fg = await ForegroundPeer.register({
      session: key,
      name: "person",
      home: suite.daemon.home,
      onItem: (i) => items.push(i),
    });
    // A session whose lock another live process holds is refused.
    const held = `${suite.daemon.home}/sessions/held.jsonl`;
    assert.equal(takeWriterLock(suite.daemon.stateDir, held, process.ppid).taken, true);
    await assert.rejects(
      ForegroundPeer.register({ session: held, name: "again", home: suite.daemon.home }),
      (e: unknown) => e instanceof RoostError && e.code === "locked",
    );
    assert.equal((await fg.spawn("work", { profile: "mute", name: "fg-kid" })).name, "fg-kid");
    const kid = (await suite.hub.call("list", {})).rows.find((r) => r.name === "fg-kid")!;
    assert.deepEqual([kid.parentSession, kid.parent], [key, fg.id]);
    const kc = await session(kid.id);
    assert.equal(
      (await kc.request("handback", { state: "done", result: "for the person" })).result.outcome,
      "delivered",
    );
    await waitFor("the report", async () => (items.some((i) => i.kind === "report") ? true : undefined));
    assert.equal(
      (await kc.request("send", { to: fg.id, message: "hello person" })).result.outcome,
      "delivered",
    );
    await waitFor("the message", async () => (items.some((i) => i.kind === "message") ? true : undefined));
    const peers = (await fg.peers()).peers.map((p) => [p.name, p.relation]);
    assert.deepEqual(peers, [["fg-kid", "child"]]);

    // Gone: no mailbox. The child's report is kept, and given when the session is back.
    fg.close();
    await waitFor("gone", async () =>
      (await kc.request("send", { to: fg.id, message: "still there?" })).result?.outcome === "not running"
        ? true
        : undefined,
    );
    assert.equal((await kc.request("handback", { state: "done", result: "later" })).result.outcome, "kept");
    items.length = 0;
    fg = await ForegroundPeer.register({
      session: key,
      name: "person",
      home: suite.daemon.home,
      onItem: (i) => items.push(i),
    });
    await waitFor("the kept report", async () =>
      items.some((i) => i.kind === "report" && /later/.test(i.text)) ? true : undefined,
    );
    fg.close();

    // The Python client: the lock, registration, peers and a message.
    assert.equal(
      takeWriterLock(suite.daemon.stateDir, `${suite.daemon.home}/sessions/py-held.jsonl`).taken,
      true,
    );
    const script = [
      "import json, sys",
      "from roost_agent import ForegroundPeer, RoostError",
      `peer = ForegroundPeer(${JSON.stringify(`${suite.daemon.home}/sessions/py.jsonl`)}, "py-person", home=${JSON.stringify(suite.daemon.home)})`,
      "try:",
      `    ForegroundPeer(${JSON.stringify(`${suite.daemon.home}/sessions/py-held.jsonl`)}, "again", home=${JSON.stringify(suite.daemon.home)})`,
      "    second = 'taken'",
      "except RoostError as e:",
      "    second = e.code",
      `child = peer.spawn("work", "mute", name="py-kid")`,
      `sent = peer.send(child["id"], "from python")`,
      "print(json.dumps({'id': peer.id, 'second': second, 'sent': sent['outcome'], 'relation': sent['relation']}))",
      "peer.close()",
    ].join("\n");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        python(),
        ["-c", script],
        { env: { ...process.env, PYTHONPATH: sdk } },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    const result = JSON.parse(out) as Record<string, string>;
    assert.match(result.id!, /^f[0-9a-f]{7}$/);
    assert.deepEqual([result.second, result.sent, result.relation], ["locked", "queued", "child"]);
  });

  test("the events feed holds starts, state changes, replies, messages, reports, notices, restarts and removals; roost events shows it", async () => {
    const { id } = await suite.hub.call("dispatch", { profile: "mute", name: "feedme" });
    await suite.hub.call("reply", { id, text: "hello feed" });
    await suite.hub.call("respawn", { id });
    await waitFor("the respawn in the feed", async () =>
      (await suite.hub.call("events", { id })).events.some((e) => e.why === "restart") ? true : undefined,
    );
    await waitFor("running again", async () =>
      (await rowOf(suite.hub, id))?.lifecycle === "running" ? true : undefined,
    );
    const c = await session(id, { state: "blocked", question: "which one?", agentItems: true });
    void c;
    await waitFor("the question in the feed", async () =>
      (await suite.hub.call("events", { id })).events.some((e) => e.why === "state") ? true : undefined,
    );
    await suite.hub.call("rm", { id });
    // A tree of its own for what a parent and its child make: a spawn, a message, a report, the
    // notices of two watches, an end.
    const { id: parent } = await suite.hub.call("dispatch", { profile: "mute", name: "feed-parent" });
    const pc = await session(parent);
    const kid = (await pc.request("spawn", { task: "work", name: "feed-kid" })).result.id as string;
    const kc = await session(kid);
    for (const when of ["idle", "ended"])
      assert.equal((await pc.request("watch", { id: kid, when })).ok, true);
    assert.equal((await pc.request("send", { to: kid, message: "hello kid" })).result.outcome, "delivered");
    const handback = await kc.request("handback", { state: "done", result: "for the parent" });
    assert.equal(handback.result.outcome, "delivered");
    await session(kid, { state: "done", status: "idle", agentItems: true });
    await notice(pc);
    await suite.hub.call("stop", { id: kid });
    await notice(pc);
    const all = (await suite.hub.call("events", {})).events;
    const kinds = new Set(all.map((e) => `${e.kind}/${e.why}`));
    assert.deepEqual(
      all.filter((e) => e.jobs.includes(id)).map((e) => `${e.kind}/${e.why}`),
      ["job/start", "reply/reply", "job/restart", "job/state", "job/remove"],
    );
    for (const k of [
      "daemon/start",
      "job/start",
      "job/restart",
      "job/state",
      "job/end",
      "job/remove",
      "reply/reply",
      "message/delivered",
      "report/delivered",
      "notice/idle",
      "notice/ended",
      "spawn/spawn",
    ])
      assert.ok(kinds.has(k), `${k} in ${[...kinds].join(", ")}`);

    const plain = await suite.daemon.cli(["events", "--id", id]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, / reply +feedme: hello feed/);
    assert.match(plain.stdout, /job\/remove +feedme: removed/);
    const json = JSON.parse((await suite.daemon.cli(["events", "--json", "--limit", "3"])).stdout);
    assert.equal(json.events.length, 3);
    assert.equal(json.cursor, json.events[2].id);

    // --follow prints what comes after it started.
    const follow = spawn(process.execPath, [CLI, "events", "--follow", "--json", "--limit", "1"], {
      env: { ...process.env, ROOST_HOME: suite.daemon.home },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let lines = "";
    follow.stdout.on("data", (d) => (lines += d));
    try {
      await waitFor("the first line", async () => (lines.includes("\n") ? true : undefined));
      await suite.hub.call("dispatch", { profile: "mute", name: "followed" });
      await waitFor("the new start", async () =>
        /"text":"followed: started/.test(lines) ? true : undefined,
      );
    } finally {
      follow.kill("SIGKILL");
    }
  });

  test("a watched job the process host went down with is neither idle nor ended; once resumed it is watched as any job", async () => {
    const items: DeliverEvent[] = [];
    const fg = await ForegroundPeer.register({
      session: `${suite.daemon.home}/sessions/watching.jsonl`,
      name: "watching",
      home: suite.daemon.home,
      onItem: (i) => items.push(i),
    });
    try {
      const { id } = await fg.spawn("work", { profile: "mute", name: "cut-off" });
      // It asks something when its host goes: what it asked goes with its process.
      const before = await session(id, { state: "blocked", question: "Go?", agentItems: true });
      assert.equal((await fg.watch(id, "ended")).fired, false);
      before.close();
      await killHost(suite.daemon);
      assert.equal((await rowOf(suite.hub, id))?.lifecycle, "interrupted");
      assert.equal((await fg.watch(id, "idle")).fired, false, "not idle");
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(items.length, 0, "not ended either");

      const resumed = await suite.hub.call("resume", { ids: [id] });
      assert.deepEqual(
        resumed.resumed.map((j) => j.id),
        [id],
      );
      await waitFor("the idle watch's notice", async () =>
        items.some((i) => i.kind === "notice" && /cut-off \(\w+\) is idle/.test(i.text)) ? true : undefined,
      );
      assert.equal(items.length, 1, "the ended watch waits on");
    } finally {
      fg.close();
    }
  });
});
