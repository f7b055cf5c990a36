import assert from "node:assert/strict";
import { linkSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { RoostAgent, type RoostAgentOptions } from "../src/client/agent.js";
import { AGENT_STATE_FILE, FinishedLedger, readFinished } from "../src/client/finished-replies.js";
import { jobEnvironment } from "../src/protocol/environment.js";
import type { DeliverEvent } from "../src/protocol/events.js";
import type { ScriptedDaemon } from "./fixtures/client-fake-daemon.js";
import { jobIdentity, scriptedDaemonSuite } from "./helpers/scripted-daemon.js";

const { cleanups, scripted } = scriptedDaemonSuite();

function agentFor(daemon: ScriptedDaemon, options: Partial<RoostAgentOptions> = {}): RoostAgent {
  const agent = RoostAgent.fromEnv({
    name: "test-agent",
    version: "1",
    env: jobEnvironment(jobIdentity(daemon)),
    summaryIntervalMs: 50,
    backoff: { initialMs: 20, maxMs: 100 },
    ...options,
  });
  assert.ok(agent);
  cleanups.push(() => agent.close());
  return agent;
}

function deliver(daemon: ScriptedDaemon, seq: number, text: string, extra: Partial<DeliverEvent> = {}) {
  daemon.send({ event: "deliver", id: "job-1", seq, text, ...extra });
}

const acked = (daemon: ScriptedDaemon) =>
  daemon.ops("ack").map((a) => (a.args.exact ? `${a.args.seq}!` : a.args.seq));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test("outside a job there is no agent; the older variable names still find one", () => {
  assert.equal(RoostAgent.fromEnv({ name: "a", version: "1", env: {} }), undefined);
  assert.equal(RoostAgent.fromEnv({ name: "a", version: "1", env: { ROOST_JOB_ID: "x" } }), undefined);
  const old = RoostAgent.fromEnv({
    name: "a",
    version: "1",
    env: { PI_JOB_ID: "old", PI_JOB_TOKEN: "t", PI_DAEMON_SOCK: "/nowhere", PI_JOB_DIR: "/nowhere" },
  });
  assert.equal(old?.identity.id, "old");
});

test("the ledger is replaced atomically: a temporary file renamed over the old one", async () => {
  const daemon = await scripted();
  const dir = jobIdentity(daemon).dir;
  const path = join(dir, AGENT_STATE_FILE);
  assert.deepEqual(readFinished(path), { finished: 0, items: [] });
  const ledger = new FinishedLedger(dir);
  ledger.record(3, false);
  // A second name for the file as it is now: a rename puts a new file in place and leaves this one whole.
  linkSync(path, join(dir, "before.json"));
  const inode = statSync(path).ino;
  ledger.record(4, false);
  ledger.record(9, true);
  assert.notEqual(statSync(path).ino, inode);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "before.json"), "utf8")), { finished: 3, items: [] });
  assert.deepEqual(readFinished(path), { finished: 4, items: [9] });
  assert.deepEqual(readdirSync(dir).sort(), ["agent.json", "before.json"]);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(new FinishedLedger(dir).isFinished(4, false), true);
  assert.equal(new FinishedLedger(dir).isFinished(5, false), false);
  assert.equal(new FinishedLedger(dir).isFinished(9, true), true);
  for (const broken of ["{not json", "[]", '{"finished": "7"}', '{"finished": -2}']) {
    writeFileSync(path, broken);
    assert.deepEqual(readFinished(path), { finished: 0, items: [] }, broken);
  }
});

test("replies are handled once each, in order, one at a time, each recorded before its ack", async () => {
  const daemon = await scripted();
  const dir = jobIdentity(daemon).dir;
  const handled: number[] = [];
  let running = 0;
  let overlapped = false;
  const gates = new Map([[1, deferred()]]);
  // What agent.json said when each ack arrived.
  const ledgerAtAck: number[] = [];
  daemon.answer = (req) => {
    if (req.op === "ack") ledgerAtAck.push(readFinished(join(dir, AGENT_STATE_FILE)).finished);
    return { result: {} };
  };
  const agent = agentFor(daemon, {
    onReply: async (reply) => {
      running++;
      overlapped ||= running > 1;
      handled.push(reply.seq);
      await gates.get(reply.seq)?.promise;
      running--;
    },
  });
  agent.report({ state: "working", summary: "ready" });
  await daemon.until(() => agent.connected, "the connection");
  deliver(daemon, 1, "first");
  deliver(daemon, 2, "second", { mode: "steer" });
  deliver(daemon, 1, "first");
  await daemon.until(() => handled.length === 1, "the first reply");
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(handled, [1], "the second waits for the first");
  assert.deepEqual(acked(daemon), [], "nothing is acked before its handler returns");
  gates.get(1)!.resolve();
  await daemon.until(() => acked(daemon).length === 2, "two acks");
  assert.deepEqual(handled, [1, 2]);
  assert.deepEqual(acked(daemon), [1, 2]);
  // agent.json holds each seq (or a later one) by the time its ack arrives.
  assert.equal(ledgerAtAck.length, 2);
  assert.ok(ledgerAtAck[0]! >= 1 && ledgerAtAck[1]! >= 2, `ledger at the acks: ${ledgerAtAck}`);
  assert.equal(overlapped, false);
  // A resend of a finished reply (after a reconnect, say) is dropped and acked again.
  deliver(daemon, 2, "second");
  await daemon.until(() => acked(daemon).length === 3, "the ack again");
  assert.deepEqual(handled, [1, 2]);
  assert.deepEqual(acked(daemon), [1, 2, 2]);
  // Agent items are acked one by one.
  deliver(daemon, 3, "from a peer", { kind: "message", from: "other" });
  await daemon.until(() => acked(daemon).length === 4, "the item's ack");
  assert.deepEqual(acked(daemon), [1, 2, 2, "3!"]);
  assert.deepEqual(readFinished(join(dir, AGENT_STATE_FILE)), { finished: 2, items: [3] });
});

test("an agent started again skips what agent.json says it finished, and only acks it", async () => {
  const daemon = await scripted();
  const dir = jobIdentity(daemon).dir;
  writeFileSync(join(dir, AGENT_STATE_FILE), JSON.stringify({ finished: 2, items: [] }));
  const handled: string[] = [];
  const agent = agentFor(daemon, { onReply: (reply) => void handled.push(reply.text) });
  agent.report({ summary: "back" });
  await daemon.until(() => agent.connected, "the connection");
  for (const [seq, text] of [
    [1, "one"],
    [2, "two"],
    [3, "three"],
  ] as const) {
    deliver(daemon, seq, text);
  }
  // A delivery for another job is not this agent's.
  daemon.send({ event: "deliver", id: "job-2", seq: 4, text: "not mine" });
  deliver(daemon, 5, "five");
  await daemon.until(() => acked(daemon).length === 4, "four acks");
  assert.deepEqual(handled, ["three", "five"]);
  assert.deepEqual(acked(daemon), [1, 2, 3, 5]);
});

test("a handler that throws counts as handled, so that its reply does not come back forever", async () => {
  const daemon = await scripted();
  const errors: unknown[] = [];
  const agent = agentFor(daemon, {
    onReply: (reply) => {
      if (reply.text === "boom") throw new Error("boom");
    },
    onError: (e) => errors.push(e),
  });
  agent.report({ summary: "x" });
  await daemon.until(() => agent.connected, "the connection");
  deliver(daemon, 1, "boom");
  deliver(daemon, 2, "fine");
  await daemon.until(() => acked(daemon).length === 2, "two acks");
  assert.equal((errors[0] as Error).message, "boom");
});

test("close acks a running reply only if its handler finishes first", async () => {
  const daemon = await scripted();
  const gate = deferred();
  const finishing = deferred();
  const agent = agentFor(daemon, {
    onReply: async (reply) => {
      if (reply.seq === 1) return;
      if (reply.seq === 2) {
        finishing.resolve();
        await gate.promise;
      }
    },
  });
  agent.report({ summary: "x" });
  await daemon.until(() => agent.connected, "the connection");
  deliver(daemon, 1, "quick");
  deliver(daemon, 2, "slow");
  deliver(daemon, 3, "never started");
  await finishing.promise;
  await daemon.until(() => acked(daemon).length === 1, "the first ack");
  await agent.close();
  gate.resolve();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(acked(daemon), [1]);
  assert.equal(readFinished(join(jobIdentity(daemon).dir, AGENT_STATE_FILE)).finished, 1);

  // The same, with the handler finishing while close waits for the daemon's answer to its report.
  const again = await scripted();
  const slowAnswer = deferred();
  const started = deferred();
  const released = deferred();
  const second = agentFor(again, {
    onReply: async () => {
      started.resolve();
      await released.promise;
    },
  });
  second.report({ summary: "y" });
  await again.until(() => second.connected, "the connection");
  deliver(again, 1, "finishes during close");
  await started.promise;
  again.answer = (req) => {
    if (req.op === "report") {
      // Hold the answer to close's report until the handler has finished.
      released.resolve();
      setTimeout(() => slowAnswer.resolve(), 50);
      return "silent";
    }
    return { result: {} };
  };
  const closing = second.close();
  await slowAnswer.promise;
  const report = again.ops("report").at(-1)!;
  again.send({ id: report.id, ok: true, result: {} }, report.connection);
  await closing;
  assert.deepEqual(acked(again), [1]);
});
