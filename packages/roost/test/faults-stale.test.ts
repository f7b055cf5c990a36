// Every stale file a crash leaves behind (a pid file naming another live process or no pid, the
// daemon's and the host's socket files), a state folder with loose permissions, a corrupt database:
// the daemon starts, or says clearly why not.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startTestDaemon, waitFor } from "./helpers/daemon.js";
import { FAULT_PROFILES, hostPidOf, reportFigures, waitForExit } from "./helpers/faults.js";

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
