// Wire abuse: invalid UTF-8, deep nesting, huge numbers, wrong types for every op, lines at 4 MiB
// and one byte over, 300 pipelined requests, a report whose open fields are abused. The daemon
// stays up, its memory bounded, and another client is served all along.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LIMITS, SESSION_OPS, USER_OPS } from "../src/protocol/index.js";
import { jobSecrets, type Message, startTestDaemon, type TestDaemon } from "./helpers/daemon.js";
import { FAULT_PROFILES } from "./helpers/faults.js";

/** What the daemon may hold at most, whatever it was sent (it reads lines of 4 MiB). */
const RSS_BOUND = 400 * 1024 * 1024;

let daemon: TestDaemon;

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
});
after(async () => {
  await daemon.stop();
});

async function servedMeanwhile(): Promise<Message> {
  const c = await daemon.connect();
  try {
    const stats = await c.request("stats");
    assert.equal(stats.ok, true);
    assert.ok(stats.result.rss < RSS_BOUND, `rss ${stats.result.rss}`);
    return stats.result;
  } finally {
    c.close();
  }
}

const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

test("malformed lines each get bad_request on a connection that goes on", async () => {
  const c = await daemon.connect();
  const refused = [
    Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x31, 0x7d, 0x0a]), // invalid UTF-8
    Buffer.from(`${deep(100_000)}\n`),
    Buffer.from('{"id":1e400,"op":"list"}\n'),
    Buffer.from('{"id":{"x":1},"op":"list"}\n'),
    Buffer.from('{"id":2,"op":["list"]}\n'),
    Buffer.from('{"id":3,"op":"list","args":"all"}\n'),
    Buffer.from("null\n"),
    Buffer.from('"just a string"\n'),
  ];
  for (const line of refused) c.socket.write(line);
  for (let i = 0; i < refused.length; i++) {
    const answer = await c.nextMessage();
    assert.equal(answer.ok, false, JSON.stringify(answer).slice(0, 200));
    assert.equal(answer.code, "bad_request");
  }
  // Deep arguments an op does not read are no harm.
  c.send(`{"id":"deep","op":"list","args":{"x":${deepObject(100_000)}}}\n`);
  assert.equal((await c.nextMessage((m) => m.id === "deep")).ok, true);
  assert.equal((await c.request("list")).ok, true);
  c.close();
  await servedMeanwhile();
});

test("wrong types for every op's arguments: each is refused with a code, none crashes the daemon", async () => {
  const wrong = [
    null,
    [],
    1e308,
    -1,
    "x".repeat(1000),
    { id: Number.MAX_VALUE, text: ["a"], profile: { deep: JSON.parse(deepObject(1000)) } },
    { id: "nope", text: 5, requestId: "bad id!", mode: 7, action: 3, when: [], to: {}, message: null },
    { id: "", token: 1, seq: "1", report: [], protocol: "1", all: "yes" },
  ];
  const ops = [
    ...USER_OPS.filter((op) => op !== "shutdown"),
    ...SESSION_OPS,
    ...["task", "events", "peer_register", "peers", "send", "spawn", "handback", "watch"],
  ];
  for (const op of ops) {
    // A connection of its own for each op: a hello or report would make it a session's.
    const c = await daemon.connect();
    for (const args of wrong) {
      const answer = await c.request(op, args);
      if (!answer.ok)
        assert.match(answer.code, /^[a-z_]+$/, `${op}: ${JSON.stringify(answer).slice(0, 200)}`);
      assert.notEqual(answer.code, "internal", `${op} ${JSON.stringify(args).slice(0, 80)}: ${answer.error}`);
    }
    c.close();
  }
  await servedMeanwhile();
});

test("a report with usage 100,000 levels deep, 3.9 MiB of usage or 1e400 is refused; the job's other ops go on", async () => {
  const hub = await daemon.connect();
  const { id } = (await hub.request("dispatch", { profile: "mute" })).result;
  const secret = (await jobSecrets(daemon.stateDir)).find((s) => s.id === id)!;
  const agent = await daemon.connect();
  const auth = { id, token: secret.token };
  agent.send(
    `{"id":"deep","op":"report","args":{"id":"${id}","token":"${secret.token}","report":{"usage":${deepObject(100_000)}}}}\n`,
  );
  assert.equal((await agent.nextMessage((m) => m.id === "deep")).code, "bad_request");
  const big = await agent.request("report", {
    ...auth,
    report: { usage: { text: "u".repeat(3.9 * 1024 * 1024) } },
  });
  assert.equal(big.code, "bad_request");
  agent.send(
    `{"id":"huge","op":"report","args":{"id":"${id}","token":"${secret.token}","report":{"usage":{"cost":1e400}}}}\n`,
  );
  assert.equal((await agent.nextMessage((m) => m.id === "huge")).code, "bad_request");
  assert.equal(
    (await agent.request("report", { ...auth, report: { summary: "fine", usage: { cost: 1 } } })).ok,
    true,
  );
  assert.equal((await hub.request("reply", { id, text: "still takes replies" })).ok, true);
  assert.equal((await hub.request("rename", { id, name: "renamed" })).ok, true);
  assert.equal((await agent.request("hello", { ...auth, protocol: 1 })).ok, true);
  hub.close();
  agent.close();
});

test("lines of 4 MiB are read, one byte more ends only that connection; 300 pipelined requests are all answered in order", async () => {
  const exact = await daemon.connect();
  const head = '{"id":1,"op":"list","args":{"pad":"';
  const tail = '"}}';
  const fits = `${head}${"p".repeat(LIMITS.maxLineBytes - head.length - tail.length)}${tail}`;
  exact.send(`${fits}\n`);
  assert.equal((await exact.nextMessage((m) => m.id === 1)).ok, true);
  const short = await daemon.connect();
  short.send(`${head}${"p".repeat(LIMITS.maxLineBytes - head.length - tail.length - 1)}${tail}\n`);
  assert.equal((await short.nextMessage((m) => m.id === 1)).ok, true);
  const over = await daemon.connect();
  over.send(`${head}${"p".repeat(LIMITS.maxLineBytes - head.length - tail.length + 1)}${tail}\n`);
  assert.equal((await over.nextMessage()).code, "limit");
  await over.closed;
  assert.equal((await exact.request("stats")).ok, true);
  exact.close();
  short.close();

  const c = await daemon.connect();
  c.send(Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: i, op: "stats" })).join("\n") + "\n");
  for (let i = 0; i < 300; i++) assert.equal((await c.nextMessage()).id, i);
  c.close();
  await servedMeanwhile();
});
