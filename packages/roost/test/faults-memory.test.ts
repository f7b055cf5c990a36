// Memory under churn of unique keys: foreground sessions that come, send unique 8000-character messages
// inside the rate limit, and go. Every per-key window (the duplicate window, the senders' rate
// window) and the foreground sessions remembered are bounded, so the daemon's memory stays flat
// after a warm-up; before, each unique message's text was kept for ever (8 KB a message).
// ROOST_FAULT_SOAK_ROUNDS sets how many rounds (6 here; the long form's `npm run faults` 24).
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { Caller } from "../src/daemon/caller.js";
import { ForegroundPeers } from "../src/daemon/peers/foreground.js";
import { RateWindow } from "../src/daemon/peers/rate-window.js";
import { takeWriterLock } from "../src/home/writer-lock.js";
import { LIMITS, PEER_LIMITS } from "../src/protocol/index.js";
import { type RawConnection, startTestDaemon } from "./helpers/daemon.js";
import { reportFigures } from "./helpers/faults.js";
import { waitFor } from "./helpers/wait-for.js";

const ROUNDS = Number(process.env.ROOST_FAULT_SOAK_ROUNDS) || 6;
/** New foreground sessions a round, each sending its rate limit's worth. */
const SENDERS = 40;
/** As long as a message may be (8000 characters). */
const MESSAGE_BYTES = LIMITS.message;
const MB = 1024 * 1024;

test("unique messages from sessions that come and go: the daemon's memory stays flat", async (t) => {
  const daemon = await startTestDaemon({ config: { agentExternalMessages: true } });
  const opened: RawConnection[] = [];
  try {
    const stats = await daemon.connect();
    opened.push(stats);
    const rss = async () => (await stats.request("stats")).result.rss as number;
    let serial = 0;
    const register = async (name: string) => {
      const session = join(daemon.home, "sessions", `${name}.jsonl`);
      const lock = takeWriterLock(daemon.stateDir, session);
      assert.ok(lock.taken);
      const conn = await daemon.connect();
      const registered = await conn.request("peer_register", {
        session,
        name,
        cwd: daemon.home,
        pid: process.pid,
      });
      assert.equal(registered.ok, true, JSON.stringify(registered));
      return { conn, id: registered.result.id as string, release: lock.release };
    };
    // The receiver reads what it is sent and keeps nothing of it, as a live session would.
    const receiver = await register("receiver");
    opened.push(receiver.conn);
    let delivered = 0;
    receiver.conn.socket.removeAllListeners("data");
    receiver.conn.socket.on("data", (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) delivered++;
    });

    const round = async (n: number) => {
      const senders = await Promise.all(
        Array.from({ length: SENDERS }, (_, i) => register(`soak-${n}-${i}`)),
      );
      await Promise.all(
        senders.map(async ({ conn }) => {
          for (let m = 0; m < PEER_LIMITS.messagesPerMinute; m++) {
            const unique = `${++serial} `;
            const message = unique + "x".repeat(MESSAGE_BYTES - unique.length);
            const sent = await conn.request("send", { to: receiver.id, message });
            assert.equal(sent.result?.outcome, "delivered", JSON.stringify(sent).slice(0, 300));
          }
        }),
      );
      for (const { conn, release } of senders) {
        conn.close();
        release();
      }
    };

    // Warm-up: the windows fill up to their working size, V8 grows its heap to what the load needs.
    await round(0);
    await round(1);
    const warm = await rss();
    const samples = [warm];
    for (let n = 2; n < ROUNDS; n++) {
      await round(n);
      samples.push(await rss());
    }
    const end = samples.at(-1)!;
    const sentAfterWarmUp = (ROUNDS - 2) * SENDERS * PEER_LIMITS.messagesPerMinute;
    // Kept for ever, each text would add its 8 KB: the growth a leak of them makes, in full.
    const leak = (sentAfterWarmUp * MESSAGE_BYTES) / MB;
    const growth = (end - warm) / MB;
    reportFigures(t, {
      rounds: ROUNDS,
      messages: serial,
      "rss after warm-up MB": Math.round(warm / MB),
      "rss at the end MB": Math.round(end / MB),
      "growth MB": Math.round(growth),
      "a leak of the texts would add MB": Math.round(leak),
    });
    const received = await stats.request("stats");
    assert.equal(received.ok, true);
    // "delivered" means written to the receiver's socket: the last of 57 MB may still be on its way.
    await waitFor(
      `${serial} deliveries read (${delivered} when the last send was answered)`,
      () => delivered >= serial,
    );
    // Flat: less than a third of what keeping the texts would add, which is the old growth.
    assert.ok(
      growth < leak / 3,
      `the daemon grew ${growth.toFixed(1)} MB after its warm-up (${samples.map((s) => Math.round(s / MB)).join(" → ")} MB); keeping every text would add ${leak.toFixed(0)} MB`,
    );
  } finally {
    for (const conn of opened) conn.close();
    await daemon.stop();
  }
});

test("a per-key window keeps at most its bound, and forgets a key once its window passed, asked again or not", () => {
  let now = 0;
  const window = new RateWindow(60_000, () => now, 3);
  for (const key of ["a", "b", "c"]) window.record(key);
  assert.equal(window.size, 3);
  window.record("d");
  assert.equal(window.size, 3, "one past the bound: the oldest went");
  assert.equal(window.count("a"), 0);
  assert.equal(window.count("d"), 1);
  now = 60_001;
  // Another key's event clears the ones whose minute has passed: "b", "c", "d" are never asked again.
  window.record("e");
  assert.equal(window.size, 1);
  assert.equal(window.count("e"), 1);
});

test("foreground sessions that left are remembered for an hour, at most 256 of them", () => {
  let now = 0;
  const peers = new ForegroundPeers(() => now);
  const closedCaller = { closed: true } as Caller;
  const leave = (n: number) =>
    peers.register({ id: `f${n}`, session: `s${n}`, name: `n${n}`, cwd: "/", pid: 1, caller: closedCaller });
  for (let n = 0; n < PEER_LIMITS.goneForegroundKept + 1; n++) leave(n);
  assert.equal(peers.remembered, PEER_LIMITS.goneForegroundKept, "one past the bound: the oldest went");
  assert.equal(peers.gone("f0"), undefined);
  assert.equal(peers.gone("f1")?.name, "n1");
  now = PEER_LIMITS.goneForegroundMs + 1;
  leave(9999);
  assert.equal(peers.remembered, 1, "an hour on, only the newest is remembered");
});
