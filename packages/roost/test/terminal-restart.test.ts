// The daemon SIGKILLed under terminal agents: they live on in the process host, and after the
// restart their rows are read again, a reply is typed into each once (or held, for one asking nothing), and attach still works.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { runAttach } from "./helpers/attach-pty.js";
import { connectRaw, type RawConnection, startTestDaemon, type TestDaemon } from "./helpers/daemon.js";
import { dispatchTerminal, receivedLines, rowWhen, TERMINAL_PROFILES } from "./helpers/terminal.js";

let daemon: TestDaemon;
let conn: RawConnection;

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: TERMINAL_PROFILES } });
  conn = await daemon.connect();
});

after(async () => {
  conn?.close();
  await daemon?.stop();
});

test("three terminal agents outlive a SIGKILLed daemon: alive, rows right, each reply typed once or held, attach works", async () => {
  const proceed = await dispatchTerminal(daemon, conn, "proceed");
  const menu = await dispatchTerminal(daemon, conn, "menu");
  const full = await dispatchTerminal(daemon, conn, "fullscreen");
  await rowWhen(conn, proceed.id, (r) => r.state === "blocked");
  await rowWhen(conn, menu.id, (r) => r.state === "blocked");
  await rowWhen(conn, full.id, (r) => r.summary === "compiling src/main.c");
  const before = (await conn.request("list")).result.rows as { id: string; pid: number }[];
  const pids = new Map(before.map((r) => [r.id, r.pid]));

  conn.close();
  await daemon.kill("SIGKILL");
  await daemon.start();
  conn = await daemon.connect();

  const p = await rowWhen(conn, proceed.id, (r) => r.state === "blocked");
  assert.equal(p.question, "Proceed? [y/N]");
  assert.deepEqual(p.choices, ["y", "n"]);
  const m = await rowWhen(conn, menu.id, (r) => r.state === "blocked");
  assert.deepEqual(m.choices, ["apple", "pear", "plum"]);
  const f = await rowWhen(conn, full.id, (r) => r.summary === "compiling src/main.c");
  for (const row of [p, m, f]) {
    assert.equal(row.lifecycle, "running");
    assert.equal(row.pid, pids.get(row.id), "the same process, not a new one");
  }

  // The screen survived too: attach replays it.
  const a = runAttach(daemon.home, proceed.id);
  try {
    await a.sees("Proceed? [y/N]");
    a.pty.write("\x1d");
    assert.equal(await a.exited, 0);
  } finally {
    a.pty.kill();
  }

  for (const [job, text, requestId] of [
    [proceed, "y", "r-proceed"],
    [menu, "plum", "r-menu"],
  ] as const) {
    const answer = await conn.request("reply", { id: job.id, text, requestId });
    assert.equal(answer.ok, true, JSON.stringify(answer));
  }
  await rowWhen(conn, proceed.id, (r) => r.summary === "deployed v2");
  await rowWhen(conn, menu.id, (r) => r.summary === "you picked 3");
  // The full-screen program asks nothing: its reply is held, and stays held across a restart.
  assert.equal((await conn.request("reply", { id: full.id, text: "k" })).result.held, true);
  conn.close();
  await daemon.kill("SIGKILL");
  await daemon.start();
  conn = await daemon.connect();
  assert.equal((await rowWhen(conn, full.id, (r) => r.held !== null)).held.text, "k");
  // A resend of a reply (its answer lost) is not typed again.
  const resent = await conn.request("reply", { id: proceed.id, text: "y", requestId: "r-proceed" });
  assert.equal(resent.result.duplicate, true);
  assert.deepEqual(receivedLines(proceed.dir), ["got [y]"]);
  assert.deepEqual(receivedLines(menu.dir), ["got [3]"]);
  assert.deepEqual(receivedLines(full.dir), []);
});

test("after a restart, the first listing reads an agent idle at its prompt from its screen: done, not working", async () => {
  const idle = await dispatchTerminal(daemon, conn, "idlePrompt", "hi");
  await rowWhen(conn, idle.id, (r) => r.state === "done" && r.summary === "ANSWER: hi");
  conn.close();
  await daemon.kill("SIGKILL");
  const started = daemon.start();
  // Connected as soon as the socket takes connections, as the hub reconnects: before the host may be.
  for (;;) {
    try {
      conn = await connectRaw(daemon.socketPath);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const first = (await conn.request("list")).result.rows.find((r: { id: string }) => r.id === idle.id);
  assert.equal(first.state, "done", JSON.stringify(first));
  assert.equal(first.status, "idle");
  assert.equal(first.summary, "ANSWER: hi");
  await started;
});
