// Secrets at rest: everything roost writes under the state folder is owner-only from its creation,
// and a job's stored spawn record holds none of the daemon's inherited environment (the job still
// gets it, from the daemon, at its start).
import assert from "node:assert/strict";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startTestDaemon, TEST_PROFILES, waitFor } from "./helpers/daemon.js";

/** Every path under `dir`, folders included. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return lstatSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

test("the state folder is owner-only after a run with jobs; no file holds the daemon's secret", async () => {
  const secret = `sk-test-${Math.random().toString(36).slice(2)}`;
  process.env.ROOST_TEST_API_KEY = secret;
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  delete process.env.ROOST_TEST_API_KEY;
  try {
    const c = await daemon.connect();
    const { id } = (await c.request("dispatch", { profile: "argv", task: "hello" })).result;
    const running = (not?: number) =>
      waitFor("the job to run", async () => {
        const row = (await c.request("list")).result.rows.find((r: { id: string }) => r.id === id);
        return row?.lifecycle === "running" && row.pid > 0 && row.pid !== not
          ? (row.pid as number)
          : undefined;
      });
    const first = await running();
    // Started again from its stored record: the daemon's environment comes from the daemon.
    await c.request("respawn", { id });
    const pid = await running(first);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    c.close();
    assert.ok(environ.includes(`ROOST_TEST_API_KEY=${secret}`), "the job gets the daemon's environment");
    // Stopped: the database's log is written back into it, and the stop's backup taken.
    await daemon.kill("SIGTERM");

    const paths = walk(daemon.stateDir);
    for (const name of ["roost.db", "daemon.log", "backups", "jobs"])
      assert.ok(paths.includes(join(daemon.stateDir, name)), `${name} is there`);
    const open = paths.filter((path) => (lstatSync(path).mode & 0o077) !== 0);
    assert.deepEqual(open, [], "nothing under the state folder is open to group or others");
    for (const path of paths.filter((p) => lstatSync(p).isFile()))
      assert.equal(readFileSync(path).includes(secret), false, `${path} holds no inherited variable`);
  } finally {
    await daemon.stop();
  }
});

test("-wal and -shm take the database's owner-only mode while the daemon runs", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  try {
    for (const side of ["", "-wal", "-shm"])
      assert.equal(
        lstatSync(join(daemon.stateDir, `roost.db${side}`)).mode & 0o777,
        0o600,
        `roost.db${side}`,
      );
  } finally {
    await daemon.stop();
  }
});
