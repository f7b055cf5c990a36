import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { hostExecArgv } from "../src/daemon/host/launch.js";
import { isProcessAlive as isAlive } from "../src/home/process.js";
import { bashJob, hostTestDir, screenShows, waitFor } from "./fixtures/host-harness.js";

// Hosts in these tests end soon after they are left alone.
process.env.ROOST_HOST_IDLE_MS = "400";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);

function testDir(t: TestContext) {
  const dir = hostTestDir();
  t.after(() => dir.cleanup());
  return dir;
}

test("the host and its jobs survive the SIGKILL of their starter's whole process group", async (t) => {
  const dir = testDir(t);
  const child = spawn(process.execPath, [fixture("host-client-child.mjs"), dir.stateDir], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
  };
  t.after(killGroup);
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  let errors = "";
  child.stderr.on("data", (chunk) => {
    errors += chunk;
  });
  const [hostPid, jobPid] = await waitFor("the child to be ready", () => {
    if (child.exitCode !== null) throw new Error(`the child failed: ${errors}`);
    const match = /ready (\d+) (\d+)/.exec(out);
    return match ? [Number(match[1]), Number(match[2])] : undefined;
  });
  killGroup();
  await waitFor("the child to die", () => child.exitCode !== null || child.signalCode !== null);

  const host = await dir.connect();
  assert.equal(host.hostPid, hostPid);
  assert.ok(isAlive(jobPid));
  const jobs = await host.list();
  assert.deepEqual(
    jobs.map((job) => [job.id, job.pid, job.running]),
    [["survivor", jobPid, true]],
  );
  const screen = await host.screen("survivor");
  assert.equal(screen.lines[0], "alive");
  await host.write("survivor", "again\r");
  await screenShows(host, "survivor", (line) => line === "heard:again");
});

test("starters racing on one state folder end up on one host", async (t) => {
  const dir = testDir(t);
  const hosts = await Promise.all([1, 2, 3].map(() => dir.connect()));
  assert.equal(new Set(hosts.map((host) => host.hostPid)).size, 1);
  // Each starter started a host; all but one found the lock taken and left.
  const log = await waitFor("the other hosts to leave", () => {
    const text = readFileSync(join(dir.stateDir, "host.log"), "utf8");
    return (text.match(/another host serves/g)?.length ?? 0) >= 2 ? text : undefined;
  });
  assert.equal(log.match(/serving/g)?.length, 1);
  // A job started through one connection is seen through another.
  await hosts[0]!.spawn(bashJob(dir.stateDir, "shared", "echo shared; sleep 30"));
  await screenShows(hosts[2]!, "shared", (line) => line === "shared");
  assert.equal((statSync(join(dir.stateDir, "host.sock")).mode & 0o777).toString(8), "600");
  assert.equal((statSync(dir.stateDir).mode & 0o777).toString(8), "700");
});

test("a stale socket left by a killed host is replaced", async (t) => {
  const dir = testDir(t);
  const first = await dir.connect();
  const lost = new Promise<void>((resolve) => first.on("lost", resolve));
  const job = await first.spawn(bashJob(dir.stateDir, "orphan", "sleep 30"));
  const pending = first.list();
  process.kill(first.hostPid, "SIGKILL");
  await lost;
  // Answered before the kill, or refused as disconnected: never left hanging.
  await pending.then(
    (jobs) => assert.equal(jobs.length, 1),
    (err) => assert.equal(err.code, "disconnected"),
  );
  await assert.rejects(first.list(), { code: "disconnected" });
  assert.ok(existsSync(join(dir.stateDir, "host.sock")));
  // Its jobs lose their terminal with it.
  await waitFor("the orphaned job to end", () => !isAlive(job.pid));

  const second = await dir.connect();
  assert.notEqual(second.hostPid, first.hostPid);
  assert.deepEqual(await second.list(), []);
});

test("shutdown ends every job, even one that ignores SIGTERM, and then the host", async (t) => {
  const dir = testDir(t);
  const host = await dir.connect();
  const calm = await host.spawn(bashJob(dir.stateDir, "calm", "echo calm; sleep 30"));
  const stubborn = await host.spawn(
    bashJob(dir.stateDir, "stubborn", "trap '' TERM HUP; echo stubborn; sleep 30"),
  );
  await screenShows(host, "stubborn", (line) => line === "stubborn");
  let lost = false;
  host.on("lost", () => {
    lost = true;
  });
  await host.shutdown();
  assert.equal(isAlive(calm.pid), false);
  assert.equal(isAlive(stubborn.pid), false);
  await waitFor("the host to end", () => !isAlive(host.hostPid));
  assert.equal(existsSync(join(dir.stateDir, "host.sock")), false);
  assert.equal(lost, false);
});

test("SIGTERM to the host ends its jobs and the host", async (t) => {
  const dir = testDir(t);
  const host = await dir.connect();
  const job = await host.spawn(bashJob(dir.stateDir, "calm", "echo calm; sleep 30"));
  await screenShows(host, "calm", (line) => line === "calm");
  const lost = new Promise<void>((resolve) => host.on("lost", resolve));
  process.kill(host.hostPid, "SIGTERM");
  await lost;
  await waitFor("the job to end", () => !isAlive(job.pid));
  await waitFor("the host to end", () => !isAlive(host.hostPid));
  assert.equal(existsSync(join(dir.stateDir, "host.sock")), false);
});

test("an exit while nobody is connected is kept for the next connection; then the idle host ends", async (t) => {
  const dir = testDir(t);
  const first = await dir.connect();
  const job = await first.spawn(bashJob(dir.stateDir, "brief", "echo started; sleep 1; echo done; exit 5"));
  await screenShows(first, "brief", (line) => line === "started");
  await first.close();
  // Nobody connected: the job runs on and ends on its own.
  await waitFor("the job to end", () => !isAlive(job.pid));
  // Well past the idle time, the host still holds the exit nobody has heard of.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.ok(isAlive(first.hostPid));

  const again = await dir.connect();
  assert.equal(again.hostPid, first.hostPid);
  const [info] = await again.list();
  assert.equal(info?.running, false);
  assert.equal(info?.exitCode, 5);
  assert.equal((await again.screen("brief")).lines[1], "done");
  await again.close();
  await waitFor("the idle host to end", () => !isAlive(first.hostPid));
  assert.equal(existsSync(join(dir.stateDir, "host.sock")), false);
});

test("the host is started with this process's loader flags, not its test, eval or inspector flags", () => {
  assert.deepEqual(
    hostExecArgv([
      "--import",
      "tsx",
      "--test-timeout=1000",
      "--inspect=9229",
      "-e",
      "console.log(1)",
      "--require=./setup.cjs",
      "--max-old-space-size=100",
      "--eval=1",
    ]),
    ["--import", "tsx", "--require=./setup.cjs", "--max-old-space-size=100"],
  );
});
