import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DAEMON_CAPABILITIES,
  DAEMON_VERSION,
  LIMITS,
  PROTOCOL_VERSION,
  USER_OPS,
} from "../src/protocol/index.js";
import { jobSecrets, receivedBy, waitFor } from "./helpers/daemon.js";
import { hubSuite } from "./helpers/hub-suite.js";

const suite = hubSuite();
const { ok, row, rowWhere, reconnectHub } = suite;

async function secretOf(id: string) {
  return (await jobSecrets(suite.daemon.stateDir)).find((s) => s.id === id)!;
}

test("hello answers the protocol, the daemon and its capabilities; bad hellos are bad_request", async () => {
  const c = await suite.daemon.connect();
  const hello = await c.request("hello", {
    protocol: 7,
    agent: { name: "x", version: "2" },
    capabilities: [],
  });
  assert.deepEqual(hello.result, {
    protocol: PROTOCOL_VERSION,
    daemon: { name: "roost", version: DAEMON_VERSION },
    capabilities: [...DAEMON_CAPABILITIES],
  });
  assert.equal((await c.request("hello", { protocol: "1" })).code, "bad_request");
  assert.equal((await c.request("hello", { protocol: 1, capabilities: "all" })).code, "bad_request");
  // A session's connection is refused every hub op.
  for (const op of USER_OPS) {
    const refused = await c.request(op, { id: "x" });
    assert.equal(refused.code, "unsupported", op);
  }
  c.close();
});

test("a wrong token is unauthorized, an unknown job not_found; a bad report is bad_request, long strings are cut", async () => {
  const { id } = await ok("dispatch", { profile: "sleeper" });
  const secret = await secretOf(id);
  const c = await suite.daemon.connect();
  assert.equal((await c.request("report", { id, token: "wrong", report: {} })).code, "unauthorized");
  assert.equal((await c.request("ack", { id, token: "wrong", seq: 1 })).code, "unauthorized");
  assert.equal((await c.request("report", { id: "nope", token: "x", report: {} })).code, "not_found");
  assert.equal((await c.request("report", { ...secret, report: { state: "asleep" } })).code, "bad_request");
  assert.equal((await c.request("report", { ...secret, report: { summary: 5 } })).code, "bad_request");
  assert.equal((await c.request("ack", { ...secret, seq: 0 })).code, "bad_request");
  const long = await c.request("report", {
    ...secret,
    report: {
      state: "blocked",
      waitingFor: "question",
      summary: "s".repeat(600),
      question: "q",
      name: "my\nsession",
    },
  });
  assert.equal(long.ok, true);
  const r = await row(id);
  assert.equal(r.summary.length, LIMITS.summary);
  assert.equal(r.state, "blocked");
  assert.equal(r.name, "my session", "the reported name is folded and names the row");
  assert.equal(r.connected, true);
  // After its report the connection is a session's: hub ops are refused.
  assert.equal((await c.request("list")).code, "unsupported");
  c.close();
  await rowWhere(id, "disconnected", (r) => !r.connected);
  await ok("rm", { id });
});

test("50 replies waiting is full; acks are cumulative, or exact; pending ones are resent on a new reporting connection", async () => {
  const { id } = await ok("dispatch", { profile: "mute" });
  const secret = await secretOf(id);
  for (let i = 1; i <= LIMITS.maxPendingReplies; i++) {
    assert.deepEqual(await ok("reply", { id, text: `r${i}` }), { seq: i, saved: true });
  }
  const full = await suite.hub.request("reply", { id, text: "one too many" });
  assert.equal(full.code, "full");

  const agent = await suite.daemon.connect();
  assert.equal((await agent.request("report", { ...secret, report: {} })).ok, true);
  const first = await agent.nextEvent((e) => e.event === "deliver");
  assert.deepEqual(first, { event: "deliver", id, seq: 1, text: "r1" });
  for (let i = 2; i <= 50; i++) assert.equal((await agent.nextEvent()).seq, i);
  await agent.request("ack", { ...secret, seq: 10 });
  await agent.request("ack", { ...secret, seq: 20, exact: true });
  assert.equal((await row(id)).pending, 39);
  const steer = await ok("reply", { id, text: "now", mode: "steer" });
  assert.equal(steer.seq, 51);
  assert.deepEqual(await agent.nextEvent(), { event: "deliver", id, seq: 51, text: "now", mode: "steer" });
  assert.equal((await suite.hub.request("reply", { id, text: "x", mode: "sideways" })).code, "bad_request");

  // A new connection that reports gets every pending reply again (not the acked ones).
  const again = await suite.daemon.connect();
  await again.request("report", { ...secret, report: {} });
  const resent = [];
  for (let i = 0; i < 40; i++) resent.push((await again.nextEvent()).seq);
  assert.deepEqual(resent, [...Array.from({ length: 40 }, (_, i) => i + 11).filter((s) => s !== 20), 51]);
  agent.close();
  again.close();
  await ok("rm", { id });
});

test("/stop is never delivered (the job stops); a / reply needs the agent connected", async () => {
  const idle = await ok("dispatch", { profile: "sleeper" });
  const refused = await suite.hub.request("reply", { id: idle.id, text: "/model big" });
  assert.equal(refused.code, "unsupported");
  assert.match(refused.error, /connected/);
  assert.equal((await row(idle.id)).pending, 0);

  const { id } = await ok("dispatch", { profile: "agent", task: "start" });
  await rowWhere(id, "connected", (r) => r.connected && r.pending === 0);
  assert.equal((await ok("reply", { id, text: "/model big" })).seq, 2);
  // The agent has the /model reply before /stop ends it, so what it received is only up to the stop.
  const dir = (await secretOf(id)).dir;
  await waitFor("the /model reply", async () => (receivedBy(dir).length === 2 ? true : undefined));
  assert.deepEqual(await ok("reply", { id, text: "/stop" }), { stopped: true, saved: false });
  await rowWhere(id, "stopped", (r) => r.lifecycle === "stopped");
  assert.deepEqual(
    receivedBy(dir).map((d) => d.text),
    ["start", "/model big"],
  );
  for (const job of [idle.id, id]) await ok("rm", { id: job });
});

test("request ids: a resent reply is a duplicate, a resent dispatch returns the first job; the last 100 are kept", async () => {
  const first = await ok("dispatch", { profile: "mute", requestId: "d-1" });
  const resend = await ok("dispatch", { profile: "argv", name: "other", requestId: "d-1" });
  assert.deepEqual(resend, first);
  assert.equal(
    (await suite.hub.request("dispatch", { profile: "sleeper", requestId: "bad id!" })).code,
    "bad_request",
  );
  assert.equal(
    (await suite.hub.request("dispatch", { profile: "sleeper", requestId: "x".repeat(65) })).code,
    "bad_request",
  );

  const { id } = first;
  assert.deepEqual(await ok("reply", { id, text: "once", requestId: "r-0" }), { seq: 1, saved: true });
  assert.deepEqual(await ok("reply", { id, text: "once", requestId: "r-0" }), {
    duplicate: true,
    saved: true,
    seq: 1,
  });
  assert.equal((await row(id)).pending, 1, "not queued again");

  // A terminal job's replies are typed (each at its question), not queued: enough to pass the 100 ids kept.
  const { id: typed } = await ok("dispatch", { profile: "asker" });
  for (let i = 0; i <= LIMITS.replyRequestIdsKept; i++) {
    await rowWhere(typed, `question ${i + 1}`, (r) => r.question === `Reply ${i + 1}?`);
    await ok("reply", { id: typed, text: `t${i}`, requestId: `t-${i}` });
  }
  await rowWhere(
    typed,
    "the next question",
    (r) => r.question === `Reply ${LIMITS.replyRequestIdsKept + 2}?`,
  );
  assert.equal((await ok("reply", { id: typed, text: "t100", requestId: "t-100" })).duplicate, true);
  const forgotten = await ok("reply", { id: typed, text: "t0", requestId: "t-0" });
  assert.equal(forgotten.seq, 102, "the oldest id was let go");
  for (const job of [id, typed]) await ok("rm", { id: job });
});

test("a saved reply survives SIGKILL of the daemon; seqs continue across restarts", async () => {
  const { id } = await ok("dispatch", { profile: "holder", task: "task one" });
  await rowWhere(id, "connected", (r) => r.connected);
  assert.equal((await ok("reply", { id, text: "two", requestId: "k-2" })).seq, 2);
  await suite.daemon.kill("SIGKILL");
  await suite.daemon.start();
  await reconnectHub();
  const r = await row(id);
  assert.equal(r.pending, 2);
  assert.deepEqual(await ok("reply", { id, text: "two", requestId: "k-2" }), {
    duplicate: true,
    saved: true,
    seq: 2,
  });
  assert.equal((await ok("reply", { id, text: "three" })).seq, 3);
  await suite.daemon.kill("SIGTERM");
  await suite.daemon.start();
  await reconnectHub();
  assert.equal((await ok("reply", { id, text: "four" })).seq, 4);
  await ok("rm", { id });
});

test("SIGKILL under a live agent with replies pending: it reconnects, reports and gets each pending reply again", async () => {
  const { id } = await ok("dispatch", { profile: "holder", task: "first" });
  const dir = (await secretOf(id)).dir;
  await ok("reply", { id, text: "second" });
  await waitFor("two deliveries", async () => (receivedBy(dir).length === 2 ? true : undefined));
  const pid = (await row(id)).pid;
  await suite.daemon.kill("SIGKILL");
  await suite.daemon.start();
  await reconnectHub();
  await waitFor("the pending replies again", async () => (receivedBy(dir).length === 4 ? true : undefined));
  assert.deepEqual(
    receivedBy(dir).map((d) => d.seq),
    [1, 2, 1, 2],
  );
  const r = await rowWhere(id, "connected again", (r) => r.connected);
  assert.equal(r.pid, pid, "the same agent process, re-adopted");
  assert.equal(r.lifecycle, "running");
  assert.equal((await ok("reply", { id, text: "third" })).seq, 3);
  await waitFor("the third", async () => (receivedBy(dir).length === 5 ? true : undefined));
  await ok("rm", { id });
});
