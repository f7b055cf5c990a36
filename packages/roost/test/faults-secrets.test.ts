// Secrets at rest: everything roost writes under the state folder is owner-only from its creation,
// a job's stored spawn record holds none of the daemon's inherited environment (the job still
// gets it, from the daemon, at its start), and no file holds a job's token (only its hash).
import assert from "node:assert/strict";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { jobSecrets, startTestDaemon, TEST_PROFILES, waitFor } from "./helpers/daemon.js";

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
    // Read once the process has exec'd its program: just after the fork it shows the host's own.
    const environ = await waitFor("the job's program to start", async () => {
      const vars = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      return vars.some((v) => v.startsWith("ROOST_JOB_ID=")) ? vars : undefined;
    });
    c.close();
    assert.ok(environ.includes(`ROOST_TEST_API_KEY=${secret}`), "the job gets the daemon's environment");
    // The job's token is given to its process and kept only as a hash.
    const token = environ.find((v) => v.startsWith("ROOST_JOB_TOKEN="))?.slice("ROOST_JOB_TOKEN=".length);
    assert.ok(token && token.length >= 32, "the job gets a random token");
    assert.ok(environ.includes(`PI_JOB_TOKEN=${token}`), "under its older name too");
    // Stopped: the database's log is written back into it, and the stop's backup taken.
    await daemon.kill("SIGTERM");

    const paths = walk(daemon.stateDir);
    for (const name of ["roost.db", "daemon.log", "backups", "jobs"])
      assert.ok(paths.includes(join(daemon.stateDir, name)), `${name} is there`);
    const open = paths.filter((path) => (lstatSync(path).mode & 0o077) !== 0);
    assert.deepEqual(open, [], "nothing under the state folder is open to group or others");
    for (const path of paths.filter((p) => lstatSync(p).isFile())) {
      assert.equal(readFileSync(path).includes(secret), false, `${path} holds no inherited variable`);
      assert.equal(readFileSync(path).includes(token), false, `${path} holds no job's token`);
    }
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

test("a database from before tokens were hashed is hashed at start; its job still running speaks with its token", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  try {
    const c = await daemon.connect();
    const { id } = (await c.request("dispatch", { profile: "mute" })).result;
    c.close();
    const [{ token }] = (await jobSecrets(daemon.stateDir)).filter((s) => s.id === id);
    assert.ok(token);
    // The daemon stops; the job lives on in the process host. Its rows made as they were kept before.
    await daemon.kill("SIGTERM");
    const file = join(daemon.stateDir, "roost.db");
    const db = new Database(file);
    const row = db.prepare("SELECT data FROM jobs WHERE id = ?").get(id) as { data: string };
    const { tokenHash: _hash, ...data } = JSON.parse(row.data) as Record<string, unknown>;
    db.prepare("UPDATE jobs SET data = ? WHERE id = ?").run(JSON.stringify({ ...data, token }), id);
    const spawn = db.prepare("SELECT env FROM job_spawn WHERE id = ?").get(id) as { env: string };
    const env = { ...JSON.parse(spawn.env), ROOST_JOB_TOKEN: token, PI_JOB_TOKEN: token };
    db.prepare("UPDATE job_spawn SET env = ? WHERE id = ?").run(JSON.stringify(env), id);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    assert.equal(readFileSync(file).includes(token), true, "the token as it was kept");

    await daemon.start();
    const agent = await daemon.connect();
    const answer = await agent.request("report", { id, token, report: { state: "working" } });
    assert.equal(answer.ok, true, JSON.stringify(answer));
    const wrong = await agent.request("report", { id, token: `${token}x`, report: { state: "working" } });
    assert.equal(wrong.code, "unauthorized");
    agent.close();
    await daemon.kill("SIGTERM");
    for (const path of walk(daemon.stateDir).filter((p) => lstatSync(p).isFile()))
      assert.equal(readFileSync(path).includes(token), false, `${path} holds the job's token`);
  } finally {
    await daemon.stop();
  }
});
