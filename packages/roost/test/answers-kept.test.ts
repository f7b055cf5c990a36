// What an op answers as done is kept: a daemon SIGKILLed the moment an answer arrives still has
// the change after it starts again, for ops that write a row, a schedule, an order or a task.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestDaemon, TEST_PROFILES } from "./helpers/daemon.js";

test("a change answered is kept across a SIGKILL that comes right after the answer", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: { mute: TEST_PROFILES.mute } } });
  t.after(() => daemon.stop());
  let conn = await daemon.connect();
  const { id } = (await conn.request("dispatch", { profile: "mute", name: "kept" })).result;
  // Each change, then a kill as soon as its answer is in; then the daemon again, and a look.
  const changes: [string, Record<string, unknown>][] = [
    ["pin", { id, pinned: true }],
    ["rename", { id, name: "kept-renamed" }],
    ["schedule-add", { when: "every 30m", launch: { profile: "mute" }, name: "nightly" }],
    ["concierge-order", { action: "add", text: "look around", when: "every 1h" }],
    ["task", { action: "add", title: "write the docs" }],
  ];
  for (const [op, args] of changes) {
    const answer = await conn.request(op, args);
    assert.equal(answer.ok, true, `${op}: ${JSON.stringify(answer)}`);
    conn.close();
    await daemon.kill("SIGKILL");
    await daemon.start();
    conn = await daemon.connect();
  }
  const row = (await conn.request("list")).result.rows.find((r: { id: string }) => r.id === id);
  assert.deepEqual([row.pinned, row.name], [true, "kept-renamed"]);
  const schedules = (await conn.request("schedules")).result.schedules as { name: string }[];
  assert.deepEqual(
    schedules.map((s) => s.name),
    ["nightly"],
  );
  const orders = (await conn.request("concierge-order", { action: "list" })).result.orders as {
    text: string;
  }[];
  assert.deepEqual(
    orders.map((o) => o.text),
    ["look around"],
  );
  const tasks = (await conn.request("task", { action: "list" })).result.tasks as { title: string }[];
  assert.deepEqual(
    tasks.map((task) => task.title),
    ["write the docs"],
  );
  conn.close();
});
