import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DaemonClient } from "../src/client/daemon-client.js";
import { a2aDoes, a2aLog, a2aProfiles, speakFor } from "./helpers/a2a.js";
import { startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { connected, hubClient, rowOf } from "./helpers/fixture-agents.js";

let daemon: TestDaemon;
let hub: DaemonClient;

before(async () => {
  daemon = await startTestDaemon({
    config: {
      agentProfiles: {
        ...a2aProfiles(),
        mute: TEST_PROFILES.mute,
        crasher: { command: "exit 3", task: "argv", protocol: true },
      },
    },
  });
  hub = await hubClient(daemon);
});
after(async () => {
  hub?.close();
  await daemon?.stop();
});

const reportsFrom = (parent: string, name: string) =>
  a2aLog(daemon, parent).filter((e) => e.kind === "report" && e.from === name);

describe("spawn and hand-back", () => {
  test("a parent spawns two children (Python and TypeScript); each hands back; the parent gets both reports once, across a daemon SIGKILL", async () => {
    const { id: parent } = await hub.call("dispatch", { profile: "a2a-ts", name: "parent", task: "{}" });
    await connected(hub, parent);
    const py = await a2aDoes(daemon, hub, parent, {
      op: "spawn",
      profile: "a2a-py",
      name: "kid-py",
      task: JSON.stringify({ op: "handback", state: "done", result: "the Python half is done" }),
    });
    assert.equal(py.ok, true, py.error);
    assert.equal(py.result.name, "kid-py");
    assert.match(py.result.note, /arrives by itself/);
    const ts = await a2aDoes(daemon, hub, parent, {
      op: "spawn",
      name: "kid-ts",
      task: JSON.stringify({ op: "report", state: "working", status: "busy" }),
    });
    assert.equal(ts.ok, true, ts.error);
    const kidTs = ts.result.id as string;
    const kidPy = py.result.id as string;
    // The TypeScript child runs its parent's profile.
    assert.equal((await rowOf(hub, kidTs))!.profile, "a2a-ts");
    const row = (await rowOf(hub, kidPy))!;
    assert.deepEqual([row.parentSession, row.rootSession, row.parent], [parent, parent, parent]);

    await waitFor("the Python child's report", async () =>
      reportsFrom(parent, "kid-py").length ? true : undefined,
    );
    const first = reportsFrom(parent, "kid-py")[0]!;
    assert.equal(first.relation, "child");
    assert.match(
      first.text!,
      /^<agent-message from="kid-py" id="[0-9a-f]{8}" relation="child" kind="report">\nstate: done\n\nthe Python half is done\n<\/agent-message>\n/,
    );

    // The daemon dies; its jobs live on in the process host, and it comes back.
    await connected(hub, kidTs);
    hub.close();
    await daemon.kill("SIGKILL");
    await daemon.start();
    hub = await hubClient(daemon);
    await connected(hub, kidTs);
    await connected(hub, parent);
    const back = await a2aDoes(daemon, hub, kidTs, {
      op: "handback",
      state: "done",
      result: "the TypeScript half",
    });
    assert.deepEqual(back.result, { outcome: "delivered" });
    await waitFor("the TypeScript child's report", async () =>
      reportsFrom(parent, "kid-ts").length ? true : undefined,
    );
    // Acked (one by one) and not sent again: nothing waits on the parent's queue.
    await waitFor("the parent's queue empty", async () =>
      (await rowOf(hub, parent))?.pending === 0 ? true : undefined,
    );
    await daemon.kill("SIGKILL");
    await daemon.start();
    hub.close();
    hub = await hubClient(daemon);
    await connected(hub, parent);
    await a2aDoes(daemon, hub, parent, { op: "peers" });
    assert.equal(reportsFrom(parent, "kid-py").length, 1);
    assert.equal(reportsFrom(parent, "kid-ts").length, 1);

    // The Python client's other peer ops: peers, send (to its parent), watch (its sibling).
    const peers = await a2aDoes(daemon, hub, kidPy, { op: "peers" });
    assert.deepEqual(
      peers.result.peers.map((p: { name: string; relation: string }) => `${p.name}:${p.relation}`).sort(),
      ["kid-ts:sibling", "parent:parent"],
    );
    const sent = await a2aDoes(daemon, hub, kidPy, {
      op: "send",
      to: "parent",
      message: "a word from Python",
    });
    assert.deepEqual(sent.result, { outcome: "delivered", id: parent, name: "parent", relation: "parent" });
    await waitFor("the message", async () =>
      a2aLog(daemon, parent).some(
        (e) => e.kind === "message" && e.from === "kid-py" && e.relation === "child",
      )
        ? true
        : undefined,
    );
    const watched = await a2aDoes(daemon, hub, kidPy, { op: "watch", id: "kid-ts", when: "ended" });
    assert.deepEqual(watched.result, { id: kidTs, name: "kid-ts", when: "ended", fired: false });

    // A child stopped or removed: its parent gets a synthetic `ended` report, once.
    await hub.call("stop", { id: kidPy });
    await waitFor("the stop's ended report", async () =>
      reportsFrom(parent, "kid-py").length === 2 ? true : undefined,
    );
    assert.match(
      reportsFrom(parent, "kid-py")[1]!.text!,
      /state: ended\n\nkid-py \([0-9a-f]{8}\) was stopped/,
    );
    const parentWatch = await a2aDoes(daemon, hub, parent, { op: "watch", id: kidTs, when: "ended" });
    assert.equal(parentWatch.result.fired, false);
    await hub.call("rm", { id: kidTs });
    await waitFor("the removal's ended report", async () =>
      reportsFrom(parent, "kid-ts").length === 2 ? true : undefined,
    );
    assert.match(reportsFrom(parent, "kid-ts")[1]!.text!, /kid-ts \([0-9a-f]{8}\) was removed/);
    await waitFor("the parent's notice", async () =>
      a2aLog(daemon, parent).some(
        (e) => e.kind === "notice" && /kid-ts \([0-9a-f]{8}\) was removed/.test(e.text!),
      )
        ? true
        : undefined,
    );
    await hub.call("rm", { id: kidPy });
    const reportEvents = (await hub.call("events", { id: kidPy })).events.filter((e) => e.kind === "report");
    assert.deepEqual(
      reportEvents.map((e) => e.why),
      ["delivered", "delivered"],
      "its hand-back and its stop; a stopped child's removal says nothing more",
    );
    await hub.call("rm", { id: parent });
  });

  test("routing: a resend hands back once; the run-cause rules; a stopped parent is not woken; a removed parent's report is kept on the child", async () => {
    const { id: parent } = await hub.call("dispatch", { profile: "mute", name: "p2" });
    const p = await speakFor(daemon, parent);
    const spawned = await p.request("spawn", { task: "work" });
    assert.equal(spawned.ok, true, spawned.error);
    const child = spawned.result.id as string;
    const c = await speakFor(daemon, child);
    const hb = (args: Record<string, unknown>) => c.request("handback", { state: "done", ...args });

    assert.deepEqual((await hb({ result: "one", requestId: "r-1" })).result, { outcome: "delivered" });
    assert.deepEqual((await hb({ result: "one", requestId: "r-1" })).result, {
      outcome: "delivered",
      duplicate: true,
    });
    const report = (timeoutMs?: number) =>
      p.nextEvent((e) => e.event === "deliver" && e.kind === "report", timeoutMs);
    assert.match((await report()).text, /one/);
    await assert.rejects(report(2000), /no event/, "a resend is taken once");

    // Three runs its parent started report; the fourth in a row does not; the user's resets it.
    for (const n of [1, 2, 3])
      assert.equal((await hb({ result: `p${n}`, cause: "parent" })).result.outcome, "delivered");
    assert.equal((await hb({ result: "p4", cause: "parent" })).result.outcome, "skipped");
    assert.equal((await hb({ result: "agent", cause: "agent" })).result.outcome, "skipped");
    assert.equal((await hb({ result: "u", cause: "user" })).result.outcome, "delivered");
    assert.equal((await hb({ result: "p5", cause: "parent" })).result.outcome, "delivered");
    for (const [args, code] of [
      [{ state: "nope" }, "bad_request"],
      [{ result: "x".repeat(6001) }, "bad_request"],
      [{ cause: "whim" }, "bad_request"],
      [{ requestId: "bad id" }, "bad_request"],
    ] as const)
      assert.equal((await hb(args)).code, code, JSON.stringify(args));
    assert.equal((await hb({ result: "x".repeat(6000) })).ok, true, "6000 characters is the edge");
    assert.equal(
      (await p.request("handback", { state: "done" })).code,
      "unsupported",
      "a root has no parent",
    );

    // A child that crashes three times in a row is given up: its parent is told.
    const crasher = await p.request("spawn", { task: "crash", profile: "crasher", name: "crasher" });
    assert.equal(crasher.ok, true, crasher.error);
    const gaveUp = await p.nextEvent(
      (e) => e.event === "deliver" && e.kind === "report" && e.from === "crasher",
      15_000,
    );
    assert.match(gaveUp.text, /state: ended\n\ncrasher \([0-9a-f]{8}\) gave up: crashed 3 times in a row/);
    await hub.call("rm", { id: crasher.result.id });

    // A stopped parent: queued, not woken.
    p.close();
    await hub.call("stop", { id: parent });
    await waitFor("stopped", async () =>
      (await rowOf(hub, parent))?.lifecycle === "stopped" ? true : undefined,
    );
    assert.equal((await hb({ result: "while stopped" })).result.outcome, "queued");
    assert.equal((await rowOf(hub, parent))!.lifecycle, "stopped");

    // A removed parent: kept on the child.
    await hub.call("rm", { id: parent });
    assert.equal((await hb({ result: "kept for later" })).result.outcome, "kept");
    c.close();
    await hub.call("rm", { id: child });
  });
});
