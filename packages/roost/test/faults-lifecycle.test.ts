// The daemon's life under abuse: the connection limit abused then a shutdown, a burst of connects
// to a busy daemon, a shutdown as it starts, SIGTERM after the abuse: what a shutdown says it ended
// has ended, and nothing is refused that the limit allows.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { hostLogPath, hostSocketPath } from "../src/daemon/host/files.js";
import { LIMITS } from "../src/protocol/index.js";
import { type RawConnection, startTestDaemon, waitFor } from "./helpers/daemon.js";
import { FAULT_PROFILES, hostPidOf, isAlive, reportFigures, waitForExit } from "./helpers/faults.js";
import { processesMentioning } from "./helpers/leftovers.js";

/** The end of the daemon's and the host's logs: what a failed shutdown is read against. */
function logTails(stateDir: string): string {
  return [join(stateDir, "daemon.log"), hostLogPath(stateDir)]
    .map((file) => `\n${file}:\n${existsSync(file) ? readFileSync(file, "utf8").slice(-2000) : "(none)"}`)
    .join("");
}

test("1,100 connections, the refused ones sending a line, then shutdown --all: everything it says stopped has stopped", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  const held: RawConnection[] = [];
  try {
    const hub = await daemon.connect();
    const { id } = (await hub.request("dispatch", { profile: "sleeper" })).result;
    const running = await waitFor("the job to run", async () => {
      const row = (await hub.request("list")).result.rows.find((r: { id: string }) => r.id === id);
      return row?.pid ? row : undefined;
    });
    const hostPid = await hostPidOf(daemon);
    while (held.length < 1100) held.push(await daemon.connect());
    // The refused ones (past 1,024, the hub included) send a line, as a client that did not listen would.
    const refused = held.slice(LIMITS.maxConnections - 1);
    for (const c of refused) c.send({ id: 1, op: "list" });
    await waitFor("every refused connection closed by the daemon", async () =>
      refused.every((c) => c.socket.destroyed) ? true : undefined,
    );
    // Every refused socket was closed by the daemon; the ones it took are served.
    const served = (await held[0]!.request("stats")).result.connections;
    assert.equal(served, LIMITS.maxConnections);
    // Room for the shutdown's own connection; the rest stay open through it.
    for (const c of held.splice(0, 10)) c.close();

    const shutdown = await daemon.cli(["shutdown", "--all", "--json"]);
    if (shutdown.code !== 0) assert.fail(`${shutdown.stderr}${logTails(daemon.stateDir)}`);
    assert.deepEqual(JSON.parse(shutdown.stdout), { stopped: true });
    // What it said stopped has stopped: the daemon, the host and the job.
    await waitForExit(daemon.pid);
    await waitFor("the host and the job to end", async () =>
      !isAlive(hostPid) && !isAlive(running.pid) ? true : undefined,
    );
    reportFigures(t, {
      connections: held.length + 10,
      served,
      "refused, closed by the daemon": refused.length,
      "after shutdown --all: daemon, host, job alive": [daemon.pid, hostPid, running.pid].filter(isAlive)
        .length,
    });
  } finally {
    for (const c of held) c.close();
    await daemon.stop();
  }
});

test("connects up to the 1,024 limit in one burst while the daemon is busy are queued, none refused, then all served", async (t) => {
  const somaxconn = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
  if (somaxconn < LIMITS.maxConnections) {
    // The kernel caps a socket's accept queue at net.core.somaxconn: below the limit, no queue holds the burst.
    t.skip(
      `net.core.somaxconn is ${somaxconn}, below ${LIMITS.maxConnections}: the kernel caps the daemon's accept queue`,
    );
    return;
  }
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  const sockets: Socket[] = [];
  try {
    // Stopped, the daemon accepts nothing: every connect waits in its socket's accept queue.
    process.kill(daemon.pid, "SIGSTOP");
    const refused: string[] = [];
    try {
      const attempts = Array.from({ length: LIMITS.maxConnections - 1 }, () => {
        const socket = connect(daemon.socketPath);
        sockets.push(socket);
        return new Promise<void>((resolve) => {
          socket.once("connect", () => resolve());
          socket.once("error", (err: NodeJS.ErrnoException) => {
            refused.push(err.code ?? err.message);
            resolve();
          });
        });
      });
      await Promise.all(attempts);
    } finally {
      process.kill(daemon.pid, "SIGCONT");
    }
    reportFigures(t, { "connects in a burst": sockets.length, "refused (EAGAIN)": refused.length });
    assert.deepEqual(refused, [], "no connect refused");
    // All taken in once the daemon runs again: one more is served beside them.
    const c = await daemon.connect();
    const stats = await waitFor("every queued connection taken in", async () => {
      const answer = await c.request("stats");
      return answer.result.connections === LIMITS.maxConnections ? answer : undefined;
    });
    assert.equal(stats.ok, true);
    c.close();
  } finally {
    for (const socket of sockets) socket.destroy();
    await daemon.stop();
  }
});

test("shutdown --all as the daemon starts, its process host not yet up: the host it was starting ends too", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  try {
    const host = await hostPidOf(daemon);
    await daemon.kill("SIGKILL");
    process.kill(host, "SIGKILL");
    await waitForExit(host);
    // The socket answers before the host is up: the shutdown comes while the daemon starts one.
    await daemon.start();
    const c = await daemon.connect();
    const pid = daemon.pid;
    const answer = await c.request("shutdown", { all: true });
    assert.equal(answer.ok, true, answer.error);
    await waitForExit(pid);
    const left = processesMentioning(daemon.stateDir);
    reportFigures(t, { "processes left after shutdown --all": left.length });
    assert.deepEqual(left, [], "nothing of the home runs on");
  } finally {
    await daemon.stop();
  }
});

test("after the connection limit was abused, SIGTERM still ends the daemon", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  const held: RawConnection[] = [];
  try {
    while (held.length < LIMITS.maxConnections + 20) held.push(await daemon.connect());
    for (const c of held.slice(LIMITS.maxConnections)) c.send({ id: 1, op: "list" });
    const started = Date.now();
    await daemon.kill("SIGTERM");
    const ms = Date.now() - started;
    reportFigures(t, { connections: held.length, "SIGTERM: the daemon ended after, ms": ms });
    assert.ok(ms < 10_000, "the daemon ended promptly");
    // A new daemon starts on the same home at once.
    await daemon.start();
  } finally {
    for (const c of held) c.close();
    await daemon.stop();
  }
});

test("shutdown --all of 200 terminal jobs, the daemon slow to read as they end: it answers once all have ended", async (t) => {
  const line = "x".repeat(78);
  const daemon = await startTestDaemon({
    config: {
      agentProfiles: {
        // Each prints a screenful a moment after SIGTERM and ends a moment later: once the daemon is
        // held, the host sends it every job's screen, then their exits.
        printer: {
          command: [
            "/bin/sh",
            "-c",
            `trap 'sleep 0.5; yes ${line} | head -n 40; sleep 0.5; exit 0' TERM; sleep 600 & wait`,
          ],
          protocol: false,
        },
      },
    },
  });
  const jobs = 200;
  try {
    const hub = await daemon.connect();
    await hub.request("subscribe", {});
    for (let i = 0; i < jobs; i += 25) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => hub.request("dispatch", { profile: "printer" })),
      );
      for (const answer of answers) assert.equal(answer.ok, true, answer.error);
    }
    const pids = await waitFor("every job to run", async () => {
      const rows = (await hub.request("list")).result.rows as { pid: number | null }[];
      return rows.every((row) => row.pid) ? rows.map((row) => row.pid!) : undefined;
    });
    const hostPid = await hostPidOf(daemon);
    const daemonPid = daemon.pid;
    // A connection of the test's own to the host, read at once: it closes when the host has answered
    // the shutdown and ends.
    const watcher = connect(hostSocketPath(daemon.stateDir));
    watcher.on("error", () => {});
    watcher.resume();
    const hostAnswered = new Promise((resolve) => watcher.once("close", resolve));
    const answered = hub.request("shutdown", { all: true });
    // Rows said stopped: the daemon has asked the host to end the jobs. It is held from reading until
    // the host has answered, so that answer waits behind the jobs' last screens and exits.
    await hub.nextEvent((e) => e.event === "row" && e.row.lifecycle === "stopped");
    process.kill(daemonPid, "SIGSTOP");
    try {
      await hostAnswered;
    } finally {
      process.kill(daemonPid, "SIGCONT");
    }
    const answer = await answered;
    assert.equal(answer.ok, true, `${answer.error}${logTails(daemon.stateDir)}`);
    await waitForExit(daemonPid);
    await waitForExit(hostPid);
    const alive = pids.filter(isAlive);
    reportFigures(t, { jobs: pids.length, "alive after shutdown --all": alive.length });
    assert.deepEqual(alive, [], "every job ended");
  } finally {
    await daemon.stop();
  }
});
