// The daemon's life under abuse: the connection limit abused then a shutdown, SIGTERM after it, and
// every stale file a crash leaves behind: the daemon starts, or says clearly why not.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { LIMITS } from "../src/protocol/index.js";
import { type RawConnection, startTestDaemon, waitFor } from "./helpers/daemon.js";
import { FAULT_PROFILES, hostPidOf, isAlive, reportFigures, waitForExit } from "./helpers/faults.js";

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
    assert.equal(shutdown.code, 0, shutdown.stderr);
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

test("after SIGKILLs of the daemon and its host: a pid file naming a live unrelated process, or no pid at all, and the socket files left behind do not stop the next start", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  const unrelated = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    const host = await hostPidOf(daemon);
    await daemon.kill("SIGKILL");
    process.kill(host, "SIGKILL");
    await waitForExit(host);
    assert.ok(existsSync(daemon.socketPath), "the SIGKILL left the socket file");
    assert.ok(existsSync(join(daemon.stateDir, "host.sock")), "and the host's");
    writeFileSync(join(daemon.stateDir, "daemon.pid"), `${unrelated.pid}\n`);
    await daemon.start();
    const c = await daemon.connect();
    assert.equal((await c.request("stats")).result.pid, daemon.pid);
    // A new host starts beside the old one's socket file: a job runs.
    const { id } = (await c.request("dispatch", { profile: "sleeper" })).result;
    await waitFor("the job to run", async () =>
      (await c.request("list")).result.rows.find((r: { id: string; pid: number | null }) => r.id === id)?.pid
        ? true
        : undefined,
    );
    c.close();
    assert.equal(readFileSync(join(daemon.stateDir, "daemon.pid"), "utf8").trim(), String(daemon.pid));
    // A second daemon on the same home is refused while this one lives, and says so.
    const second = await daemon.cli(["daemon"]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /refused to start: a roost daemon \(pid \d+\) already runs/);
    // A pid file that names no pid (cut short by a full disk) is stale as well.
    await daemon.kill("SIGKILL");
    writeFileSync(join(daemon.stateDir, "daemon.pid"), "12ab\n");
    await daemon.start();
    const again = await daemon.connect();
    assert.equal((await again.request("stats")).result.pid, daemon.pid);
    again.close();
    reportFigures(t, { "stale pid files": 2, "stale socket files": 2, "starts refused": 0 });
  } finally {
    unrelated.kill();
    await daemon.stop();
  }
});

test("a state folder with loose permissions is made owner-only; a corrupt database is a clear error, not a silent refusal", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  try {
    await daemon.kill("SIGTERM");
    chmodSync(daemon.stateDir, 0o777);
    await daemon.start();
    assert.equal(statSync(daemon.stateDir).mode & 0o777, 0o700);
    await daemon.kill("SIGTERM");

    const db = join(daemon.stateDir, "roost.db");
    for (const extra of ["-wal", "-shm"]) rmSync(`${db}${extra}`, { force: true });
    writeFileSync(db, "this is not a database, it is a corrupt file ".repeat(200));
    const ls = await daemon.cli(["ls"]);
    assert.notEqual(ls.code, 0);
    assert.match(ls.stderr, /did not start \(exit code 1\): .*not a database/);
    rmSync(db);
    const again = await daemon.cli(["ls", "--json"]);
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await daemon.stop();
  }
});
