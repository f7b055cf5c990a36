// Agent items reach an agent in seq order, even when one delivery sets off another: a child's
// synthetic `ended` report (seq n) fires the parent's watch on it, whose notice (seq n+1) must not
// overtake the report.
import assert from "node:assert/strict";
import { test } from "node:test";
import { jobSecrets, type Message, startTestDaemon, waitFor } from "./helpers/daemon.js";
import { FAULT_PROFILES } from "./helpers/faults.js";

test("a watch that a delivery fires is delivered after it, in seq order", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  try {
    const hub = await daemon.connect();
    const { id: parent } = (await hub.request("dispatch", { profile: "mute", name: "parent" })).result;
    const secret = (await jobSecrets(daemon.stateDir)).find((s) => s.id === parent)!;
    const agent = await daemon.connect();
    const auth = { id: parent, token: secret.token };
    assert.equal((await agent.request("report", { ...auth, report: { agentItems: true } })).ok, true);
    const spawned = await agent.request("spawn", { task: "wait", profile: "mute", name: "child" });
    assert.equal(spawned.ok, true, spawned.error);
    const child = spawned.result.id as string;
    await waitFor("the child to run", async () =>
      (await hub.request("list")).result.rows.find(
        (r: Message) => r.id === child && r.lifecycle === "running",
      )
        ? true
        : undefined,
    );
    assert.equal((await agent.request("watch", { id: child, when: "ended" })).result.fired, false);
    assert.equal((await hub.request("stop", { id: child })).ok, true);
    // In the order they were sent: the report, then the notice it set off.
    const first = await agent.nextEvent((e) => e.event === "deliver", 15_000);
    const second = await agent.nextEvent((e) => e.event === "deliver", 15_000);
    assert.deepEqual([first.kind, second.kind], ["report", "notice"]);
    assert.match(first.text, /state: ended/);
    assert.ok(first.seq < second.seq, `report ${first.seq} before notice ${second.seq}`);
    agent.close();
    hub.close();
  } finally {
    await daemon.stop();
  }
});
