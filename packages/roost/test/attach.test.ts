// `roost attach` in a pseudo-terminal of the test's own, against a real daemon and real programs.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { type AttachPty, runAttach } from "./helpers/attach-pty.js";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./helpers/daemon.js";
import { dispatchTerminal, receivedLines, rowWhen, TERMINAL_PROFILES } from "./helpers/terminal.js";

const PROFILES = {
  ...TERMINAL_PROFILES,
  winch: {
    command: [
      "/bin/sh",
      "-c",
      'trap "stty size" WINCH; echo watching the size; while :; do sleep 0.05; done',
    ],
    task: "argv",
    protocol: false,
  },
  quitter: { command: "echo all done here", task: "argv", protocol: false },
};

describe("roost attach", () => {
  let daemon: TestDaemon;
  let conn: RawConnection;
  const attached: AttachPty[] = [];

  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles: PROFILES } });
    conn = await daemon.connect();
  });

  after(async () => {
    for (const a of attached) a.pty.kill();
    conn?.close();
    await daemon?.stop();
  });

  const attach = (id: string, size?: { cols: number; rows: number }) => {
    const a = runAttach(daemon.home, id, size);
    attached.push(a);
    return a;
  };

  test("replays the screen, types keys into the program, and Ctrl-] detaches leaving it running", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const a = attach(id);
    await a.sees("Ctrl-] detaches");
    await a.sees("Proceed? [y/N]");
    assert.match(a.output, /about to deploy v2/);
    a.pty.write("y\r");
    await a.sees("deployed v2");
    assert.deepEqual(receivedLines(dir), ["got [y]"]);
    // Its screen is drawn on a screen of its own, cleared first, after the note on the shell's.
    const own = a.output.indexOf("\x1b[?1049h\x1b[H\x1b[2J");
    assert.ok(own > a.output.indexOf("Ctrl-] detaches"), "the alternate screen, cleared, after the note");
    assert.ok(own < a.output.indexOf("Proceed? [y/N]"), "then the job's screen");
    const mark = a.output.length;
    a.pty.write("\x1d");
    assert.equal(await a.exited, 0);
    const after = a.output.slice(mark);
    assert.match(after, /detached from proceed/);
    assert.ok(after.indexOf("\x1b[?1049l") < after.indexOf("detached from"), "the shell's screen back first");
    const row = await rowWhen(conn, id, (r) => r.summary === "deployed v2");
    assert.equal(row.lifecycle, "running");
  });

  test("a resize of the attached terminal reaches the program as SIGWINCH", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "winch");
    await rowWhen(conn, id, (r) => r.summary === "watching the size");
    const a = attach(id, { cols: 90, rows: 25 });
    await a.sees("watching the size");
    // The attach took the terminal's size: the program heard of it.
    await a.sees("25 90");
    a.pty.resize(70, 20);
    await a.sees("20 70");
    a.pty.write("\x1d");
    assert.equal(await a.exited, 0);
  });

  test("attaching to a job that ended shows its last screen and says so", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "quitter");
    await rowWhen(conn, id, (r) => r.lifecycle === "done");
    const a = attach(id);
    await a.sees("this is its last screen; press a key to leave it");
    // On a cleared screen of its own: never drawn over the shell's rows.
    assert.ok(a.output.indexOf("\x1b[?1049h\x1b[H\x1b[2J") < a.output.indexOf("all done here"));
    const mark = a.output.length;
    a.pty.write("x");
    assert.equal(await a.exited, 0);
    const after = a.output.slice(mark);
    assert.ok(
      after.indexOf("\x1b[?1049l") < after.indexOf("this is its last screen"),
      "back on the shell's screen",
    );
  });

  test("several watch, the first attached types; when it leaves the next one takes the keyboard", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const first = await daemon.connect();
    const second = await daemon.connect();
    try {
      const one = await first.request("attach", { id });
      const two = await second.request("attach", { id });
      assert.equal(one.result.keyboard, true);
      assert.equal(two.result.keyboard, false);
      assert.match(two.result.screen, /Proceed\? \[y\/N\]/);
      const refused = await second.request("attach-input", { id, data: "n\r" });
      assert.equal(refused.ok, false);
      assert.equal(refused.code, "locked");
      await first.request("detach", { id });
      await second.nextEvent((e) => e.event === "terminal-keyboard" && e.id === id);
      const typed = await second.request("attach-input", { id, data: "y\r" });
      assert.equal(typed.ok, true);
      const output = await second.nextEvent(
        (e) => e.event === "terminal-output" && String(e.data).includes("deployed v2"),
      );
      assert.equal(output.id, id);
      assert.deepEqual(receivedLines(dir), ["got [y]"]);
      // Sizes from 2x2 to 1000x500; past them, bad_request.
      for (const [cols, rows] of [
        [1, 10],
        [1001, 10],
        [80, 501],
      ] as const) {
        const bad = await second.request("attach-resize", { id, cols, rows });
        assert.equal(bad.code, "bad_request", `${cols}x${rows}`);
      }
      for (const [cols, rows] of [
        [2, 2],
        [1000, 500],
      ] as const) {
        assert.equal((await second.request("attach-resize", { id, cols, rows })).ok, true, `${cols}x${rows}`);
      }
    } finally {
      first.close();
      second.close();
    }
  });

  test("keys from a connection that is not attached are refused", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "title");
    const answer = await conn.request("attach-input", { id, data: "x" });
    assert.equal(answer.ok, false);
    assert.equal(answer.code, "bad_request");
    // Keys are checked before anything else: at most 100 000 characters at once.
    const long = await conn.request("attach-input", { id, data: "x".repeat(100_001) });
    assert.match(long.error, /longer than 100000/);
    const atTheLimit = await conn.request("attach-input", { id, data: "x".repeat(100_000) });
    assert.match(atTheLimit.error, /not attached/);
    const missing = await conn.request("attach", { id: "no-such-job" });
    assert.equal(missing.code, "not_found");
  });

  test("an attach outlives a SIGKILLed daemon: it waits, starts it again, redraws, and keys reach the program", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const a = attach(id);
    await a.sees("Proceed? [y/N]");
    conn.close();
    await daemon.kill("SIGKILL");
    await a.sees("the daemon went away");
    const mark = a.output.length;
    // attach brings the daemon back (as every roost command does) and replays the screen.
    await a.sees("Proceed? [y/N]", mark);
    conn = await daemon.connect();
    a.pty.write("y\r");
    await a.sees("deployed v2", mark);
    assert.deepEqual(receivedLines(dir), ["got [y]"]);
    a.pty.write("\x1d");
    assert.equal(await a.exited, 0);
    const row = await rowWhen(conn, id, (r) => r.summary === "deployed v2");
    assert.equal(row.lifecycle, "running");
  });

  // Last: it shuts the daemon down (the suite's end starts it again to clean up).
  test("a shutdown wins over an attach: it ends, and the daemon is not started again", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const a = attach(id);
    await a.sees("Proceed? [y/N]");
    conn.close();
    const shutdown = await daemon.cli(["shutdown", "--all"]);
    assert.equal(shutdown.code, 0, shutdown.stderr);
    assert.equal(await a.exited, 0);
    assert.match(a.output, /the daemon was shut down with its jobs; proceed(-\d+)? \(\w+\) ended/);
    assert.equal(existsSync(daemon.socketPath), false, "no daemon was started again");
  });
});
