import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { after, before, test } from "node:test";
import { encodeLine, LIMITS } from "../src/protocol/index.js";
import {
  connectRaw,
  jobSecrets,
  type RawConnection,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";

let daemon: TestDaemon;

before(async () => {
  daemon = await startTestDaemon({
    config: { agentProfiles: { sleeper: { command: ["sleep", "600"], task: "argv", protocol: false } } },
  });
});
after(async () => {
  await daemon.stop();
});

test("the state folder is owner-only and the socket 0600", () => {
  assert.equal(statSync(daemon.stateDir).mode & 0o777, 0o700);
  assert.equal(statSync(daemon.socketPath).mode & 0o777, 0o600);
});

test("a malformed line is bad_request and the connection goes on; unknown fields are ignored", async () => {
  const c = await daemon.connect();
  c.send("this is not json\n");
  assert.deepEqual(await c.nextMessage(), {
    id: null,
    ok: false,
    error: "not a JSON line",
    code: "bad_request",
  });
  c.send('{"op":"list"}\n');
  assert.equal((await c.nextMessage()).code, "bad_request");
  c.send('{"id":5}\n');
  const noOp = await c.nextMessage();
  assert.equal(noOp.id, 5);
  assert.equal(noOp.code, "bad_request");
  c.send("[1,2]\n");
  assert.equal((await c.nextMessage()).code, "bad_request");
  const unknown = await c.request("no-such-op");
  assert.equal(unknown.code, "bad_request");
  assert.match(unknown.error, /unknown op/);
  c.send(encodeLine({ id: "s1", op: "list", args: {}, extra: { ignored: true } }));
  const withExtra = await c.nextMessage((m) => m.id === "s1");
  assert.equal(withExtra.ok, true);
  assert.deepEqual(withExtra.result, { rows: [] });
  const bad = await c.request("pin", { id: 42 });
  assert.equal(bad.code, "bad_request");
  assert.equal((await c.request("list")).ok, true);
  c.close();
});

test("requests on one connection are answered in order", async () => {
  const c = await daemon.connect();
  // A dispatch (it waits for the process host) ahead of quick ops: the answers keep the order.
  const lines = [
    { id: 1, op: "dispatch", args: { profile: "sleeper", name: "ordered" } },
    { id: 2, op: "list", args: {} },
    { id: 3, op: "nope", args: {} },
    { id: 4, op: "stats", args: {} },
  ];
  c.send(lines.map(encodeLine).join(""));
  const got = [];
  for (let i = 0; i < 4; i++) got.push(await c.nextMessage((m) => "ok" in m));
  assert.deepEqual(
    got.map((m) => m.id),
    [1, 2, 3, 4],
  );
  assert.equal(got[1]!.result.rows.length, 1, "the list after the dispatch sees its job");
  assert.equal((await c.request("rm", { id: "ordered" })).ok, true);
  c.close();
});

function lineOfSize(bytes: number): string {
  const base = JSON.stringify({ id: 1, op: "list", args: {}, pad: "" });
  return JSON.stringify({ id: 1, op: "list", args: {}, pad: "x".repeat(bytes - base.length) });
}

test("a request line of exactly 4 MiB is answered; one byte more ends the connection", async () => {
  const c = await daemon.connect();
  const exact = lineOfSize(LIMITS.maxLineBytes);
  assert.equal(Buffer.byteLength(exact), LIMITS.maxLineBytes);
  c.send(`${exact}\n`);
  const answer = await c.nextMessage();
  assert.equal(answer.ok, true);
  assert.equal((await c.request("list")).ok, true, "the connection goes on");

  const over = lineOfSize(LIMITS.maxLineBytes + 1);
  assert.equal(Buffer.byteLength(over), LIMITS.maxLineBytes + 1);
  c.send(`${over}\n`);
  const refusal = await c.nextMessage();
  assert.equal(refusal.id, null);
  assert.equal(refusal.code, "limit");
  await c.closed;
  c.close();
});

test("at most 256 requests are in flight on one connection, and all are answered in order", async () => {
  for (const count of [LIMITS.maxInFlight, 300]) {
    const c = await daemon.connect();
    const lines = Array.from({ length: count }, (_, i) => encodeLine({ id: i + 1, op: "list", args: {} }));
    c.send(lines.join(""));
    for (let i = 1; i <= count; i++) {
      const m = await c.nextMessage((x) => "ok" in x);
      assert.equal(m.id, i);
    }
    const stats = await c.request("stats");
    assert.equal(stats.result.inFlightPeak, LIMITS.maxInFlight, `peak with ${count} pipelined`);
    c.close();
  }
});

test("1024 connections are served; the 1025th gets an error line and is closed", async () => {
  const held: RawConnection[] = [];
  try {
    const probe = await daemon.connect();
    const base = (await probe.request("stats")).result.connections as number;
    held.push(probe);
    while (held.length < LIMITS.maxConnections - base + 1) held.push(await daemon.connect());
    const last = held[held.length - 1]!;
    const stats = await last.request("stats");
    assert.equal(stats.ok, true);
    assert.equal(stats.result.connections, LIMITS.maxConnections);

    const extra = await daemon.connect();
    const refusal = await extra.nextMessage();
    assert.equal(refusal.code, "limit");
    assert.match(refusal.error, /too many connections/);
    await extra.closed;

    held.pop()!.close();
    await waitFor("a free slot", async () => {
      const again = await daemon.connect();
      again.send(encodeLine({ id: 1, op: "stats", args: {} }));
      const r = await again.nextMessage(() => true, 2000).catch(() => undefined);
      again.close();
      return r?.ok ? true : undefined;
    });
  } finally {
    for (const c of held) c.close();
  }
});

/** A socket that never reads what the daemon sends. */
function unreadSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    s.once("error", reject);
    s.once("connect", () => {
      s.pause();
      resolve(s);
    });
  });
}

test("a client that leaves 16 MiB unread is dropped; one under it is kept", async () => {
  const hub = await daemon.connect();
  const { result } = await hub.request("dispatch", { profile: "sleeper", name: "fat" });
  assert.ok(result?.id, "dispatched");
  const secret = (await jobSecrets(daemon.stateDir)).find((s) => s.id === result.id)!;
  // A fat row makes every list answer big.
  const report = {
    summary: "s".repeat(LIMITS.summary),
    question: "q".repeat(LIMITS.question),
    choices: Array.from({ length: LIMITS.choices }, () => "c".repeat(LIMITS.choice)),
  };
  const agent = await daemon.connect();
  assert.equal((await agent.request("report", { ...secret, report })).ok, true);
  const other = await daemon.connect();
  const one = encodeLine(await other.request("list"));
  const answerBytes = Buffer.byteLength(one);
  assert.ok(answerBytes > 7000, "a fat row");

  const request = encodeLine({ id: 1, op: "list", args: {} });
  const under = Math.floor((LIMITS.maxUnreadBytes - 256 * 1024) / answerBytes);
  const over = Math.ceil((LIMITS.maxUnreadBytes + 1024 * 1024) / answerBytes);
  const connections = async () => (await other.request("stats")).result.connections as number;
  const base = await connections();
  const kept = await unreadSocket(daemon.socketPath);
  const dropped = await unreadSocket(daemon.socketPath);
  dropped.on("error", () => {});
  // Both accepted by the daemon before anything is written.
  await waitFor("both connections", async () => ((await connections()) === base + 2 ? true : undefined));
  const before = base + 2;
  kept.write(request.repeat(under));
  dropped.write(request.repeat(over));
  // A paused socket does not see its end: the daemon's count of connections does.
  await waitFor(
    "the unread client to be dropped",
    async () => ((await connections()) === before - 1 ? true : undefined),
    20_000,
  );

  const countLines = (socket: Socket) => {
    const seen = { lines: 0, closed: false };
    let rest = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      rest = Buffer.concat([rest, chunk]);
      let nl = rest.indexOf(10);
      while (nl !== -1) {
        seen.lines++;
        rest = rest.subarray(nl + 1);
        nl = rest.indexOf(10);
      }
    });
    socket.on("close", () => (seen.closed = true));
    socket.resume();
    return seen;
  };
  const keptSeen = countLines(kept);
  const droppedSeen = countLines(dropped);
  await waitFor(
    "every answer to the kept client",
    async () => (keptSeen.lines === under ? true : undefined),
    20_000,
  );
  await waitFor("the dropped client's end", async () => (droppedSeen.closed ? true : undefined), 20_000);
  assert.ok(droppedSeen.lines < over, `the dropped client got ${droppedSeen.lines} of ${over} answers`);
  assert.equal(keptSeen.closed, false);
  assert.equal(kept.destroyed, false);
  kept.destroy();
  dropped.destroy();
  assert.equal((await hub.request("rm", { id: "fat" })).ok, true);
  hub.close();
  agent.close();
  other.close();
});

test("a second daemon on the same home refuses and says why; a stale socket is replaced", async () => {
  const second = await daemon.cli(["daemon"]);
  assert.equal(second.code, 1);
  assert.match(second.stderr, /refused to start: a roost daemon \(pid \d+\) already runs/);
  // A daemon killed outright leaves its socket and pid file behind: the next one replaces them.
  await daemon.kill("SIGKILL");
  assert.ok(statSync(daemon.socketPath).isSocket());
  await daemon.start();
  const c = await connectRaw(daemon.socketPath);
  assert.equal((await c.request("stats")).result.pid, daemon.pid);
  c.close();
});
