import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { jobSecrets, type Message, receivedBy, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { hubSuite } from "./helpers/hub-suite.js";

const suite = hubSuite();
const { ok, row, rowWhere, reconnectHub } = suite;

test("dispatch starts a job in its folder with the job's identity, new names and old; argv takes the task", async () => {
  const { id, name } = await ok("dispatch", { profile: "argv", task: "fix it", cwd: suite.daemon.home });
  assert.equal(name, "argv");
  const dir = join(suite.daemon.stateDir, "jobs", id);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  // Before any report, the row's text is the terminal's last non-empty line.
  const r = await rowWhere(id, "the summary from the screen", (r) => r.summary?.startsWith("task="));
  assert.equal(r.summary, `task=[fix it] new=${id} old=${id}`);
  assert.equal(r.lifecycle, "running");
  assert.equal(r.kind, "terminal");
  assert.equal(r.cwd, suite.daemon.home);
  assert.equal(r.reported, false);
  assert.ok(r.pid > 0);
  const secret = (await jobSecrets(suite.daemon.stateDir)).find((s) => s.id === id)!;
  assert.equal(secret.dir, dir);
  assert.ok(secret.token.length >= 32, "a random token");
  await ok("rm", { id });
  assert.equal(existsSync(dir), false, "rm removes the folder");
});

test("rm removes the folder of a job printing as fast as it can, for good; a restart leaves and names a folder of no job", async () => {
  const { id } = await ok("dispatch", { profile: "chatty" });
  const dir = join(suite.daemon.stateDir, "jobs", id);
  await waitFor("its terminal log", async () => existsSync(join(dir, "terminal.log")) || undefined);
  await ok("rm", { id });
  assert.equal(existsSync(dir), false, "rm removes the folder");
  // The host flushes its log every 100 ms: a folder made again would show within a few flushes.
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(existsSync(dir), false, "nothing writes the folder again");
  assert.equal(await row(id), undefined);

  const stray = join(suite.daemon.stateDir, "jobs", "j-stray");
  mkdirSync(join(stray, "inner"), { recursive: true });
  writeFileSync(join(stray, "inner", "terminal.log"), "left behind");
  await suite.daemon.kill("SIGTERM");
  await suite.daemon.start();
  await reconnectHub();
  // The daemon answers before it has taken up the host's jobs; what the store does not know is
  // left alone and logged then (the store may be one brought back from an older backup).
  const log = join(suite.daemon.stateDir, "daemon.log");
  await waitFor("the stray folder named in the log", () =>
    readFileSync(log, "utf8").includes("the job folders j-stray: unknown to the store, left alone"),
  );
  assert.ok(existsSync(join(stray, "inner", "terminal.log")), "the stray folder is left as it was");
});

test("task: type makes the task reply 1; the agent's report sets the row; hello's name is folded", async () => {
  const { id } = await ok("dispatch", { profile: "agent", task: "do the thing" });
  const r = await rowWhere(id, "the agent's report", (r) => r.reported && r.pending === 0);
  assert.equal(r.summary, "agent up");
  assert.equal(r.connected, true);
  assert.deepEqual(r.agent, { name: "test agent", version: "1.0" });
  assert.deepEqual(r.capabilities, ["report", "replies"]);
  const secret = (await jobSecrets(suite.daemon.stateDir)).find((s) => s.id === id)!;
  assert.deepEqual(
    receivedBy(secret.dir).map((d) => [d.seq, d.text]),
    [[1, "do the thing"]],
  );
  await ok("reply", { id, text: "say:second" });
  await rowWhere(id, "the second report", (r) => r.summary === "second");
  await ok("rm", { id });
});

test("a bad roost.json is a clear error naming the file and the key; the daemon goes on", async () => {
  const file = join(suite.daemon.home, "roost.json");
  try {
    writeFileSync(file, JSON.stringify({ agentProfiles: { broken: { command: 5 } } }));
    const bad = await suite.hub.request("dispatch", { profile: "broken" });
    assert.equal(bad.code, "bad_request");
    assert.match(bad.error, new RegExp(`${file}: agentProfiles\\.broken\\.command must be`));
    writeFileSync(file, JSON.stringify({ agentProfiles: { x: { command: ["true"], task: "paste" } } }));
    assert.match(
      (await suite.hub.request("dispatch", { profile: "x" })).error,
      /agentProfiles\.x\.task must be/,
    );
    writeFileSync(file, "{ not json");
    const notJson = await suite.hub.request("dispatch", { profile: "x" });
    assert.equal(notJson.code, "bad_request");
    assert.match(notJson.error, /roost\.json: not valid JSON/);
    assert.equal((await suite.hub.request("stats")).ok, true, "the daemon keeps running");
  } finally {
    writeFileSync(file, JSON.stringify({ agentProfiles: TEST_PROFILES }));
  }
  const missing = await suite.hub.request("dispatch", { profile: "nope" });
  assert.equal(missing.code, "not_found");
  assert.match(missing.error, /profiles: agent, holder, .*, claude, codex, pi\)/);
  assert.equal(
    (await suite.hub.request("dispatch", { profile: "agent", cwd: "/no/such/folder" })).code,
    "bad_request",
  );
  assert.equal((await suite.hub.request("dispatch", {})).code, "bad_request");
});

test("exits: 0 is done, a report of done or failed says so, crashes restart and then give up", async () => {
  const quit = await ok("dispatch", { profile: "quitter" });
  const done = await rowWhere(quit.id, "done", (r) => r.lifecycle === "done");
  assert.equal(done.exitCode, 0);
  assert.equal(done.state, "done");

  const crash = await ok("dispatch", { profile: "crasher" });
  const failed = await rowWhere(crash.id, "the give-up", (r) => r.lifecycle === "failed");
  assert.match(failed.error, /crashed 3 times in a row \(last: exit code 3\); gave up/);
  assert.equal(failed.restarts, 2);
  assert.equal(failed.state, "failed");

  const agent = await ok("dispatch", { profile: "agent", task: "fail" });
  const reportedFailure = await rowWhere(agent.id, "failed", (r) => r.lifecycle === "failed");
  assert.equal(reportedFailure.error, "broke");
  assert.equal(reportedFailure.restarts, 0, "a failure the agent reported is not a crash");
  for (const id of [quit.id, crash.id, agent.id]) await ok("rm", { id });
});

test("a reply to an ended job starts it again; a stopped job waits for respawn", async () => {
  const { id } = await ok("dispatch", { profile: "agent", task: "done" });
  await rowWhere(id, "done", (r) => r.lifecycle === "done");
  await ok("reply", { id, text: "say:back again" });
  await rowWhere(id, "started again", (r) => r.lifecycle === "running" && r.summary === "back again");

  await ok("stop", { id });
  await rowWhere(id, "stopped", (r) => r.lifecycle === "stopped" && !r.connected);
  const saved = await ok("reply", { id, text: "say:after respawn" });
  assert.equal(saved.saved, true);
  const still = await row(id);
  assert.equal(still.lifecycle, "stopped");
  assert.equal(still.pending, 1);
  await ok("respawn", { id });
  await rowWhere(id, "respawned with the reply", (r) => r.summary === "after respawn" && r.pending === 0);
  await ok("rm", { id });
});

test("subscribe gives the rows, then row events; rename, pin and reorder change rows; names are folded", async () => {
  const watcher = await suite.daemon.connect();
  const first = await ok("dispatch", { profile: "sleeper", name: "one\nline\tname" });
  assert.equal(first.name, "one line name");
  const second = await ok("dispatch", { profile: "sleeper" });
  const third = await ok("dispatch", { profile: "sleeper" });
  assert.deepEqual([second.name, third.name], ["sleeper", "sleeper-2"]);
  const subscribed = await watcher.request("subscribe");
  assert.deepEqual(
    subscribed.result.rows.map((r: Message) => r.id),
    [first.id, second.id, third.id],
  );

  assert.deepEqual(await ok("rename", { id: "one line name", name: "  renamed\u0007job " }), {
    id: first.id,
    name: "renamed job",
  });
  const renamed = await watcher.nextEvent(
    (e) => e.event === "row" && e.row.id === first.id && e.row.name !== "one line name",
  );
  assert.equal(renamed.row.name, "renamed job");
  assert.equal((await suite.hub.request("rename", { id: first.id, name: "\n" })).code, "bad_request");

  await ok("pin", { id: third.id, pinned: true });
  const pinned = await watcher.nextEvent((e) => e.event === "row" && e.row.id === third.id && e.row.pinned);
  assert.equal(pinned.row.name, "sleeper-2");
  await ok("reorder", { ids: [second.id, first.id] });
  const order = (await ok("list")).rows.map((r: Message) => r.id);
  assert.deepEqual(order, [third.id, second.id, first.id]);
  await ok("pin", { id: third.id, pinned: false });
  assert.deepEqual(
    (await ok("list")).rows.map((r: Message) => r.id),
    [second.id, first.id, third.id],
  );

  // An id or a unique name; a shared name is refused.
  await ok("rename", { id: third.id, name: "sleeper" });
  const ambiguous = await suite.hub.request("stop", { id: "sleeper" });
  assert.equal(ambiguous.code, "bad_request");
  assert.match(ambiguous.error, /2 jobs are named "sleeper"/);
  assert.equal((await suite.hub.request("stop", { id: "nobody" })).code, "not_found");

  await ok("rm", { id: first.id });
  const removed = await watcher.nextEvent((e) => e.event === "row-removed");
  assert.equal(removed.id, first.id);
  for (const id of [second.id, third.id]) await ok("rm", { id });
  watcher.close();
});

test("after a restart the daemon re-adopts running jobs and records exits that came meanwhile", async () => {
  const running = await ok("dispatch", { profile: "sleeper", name: "survivor" });
  const before = await rowWhere(running.id, "running", (r) => r.lifecycle === "running");
  const quitting = await ok("dispatch", { profile: "slowquit" });
  await suite.daemon.kill("SIGKILL");
  // slowquit ends while no daemon runs.
  await new Promise((r) => setTimeout(r, 1500));
  await suite.daemon.start();
  await reconnectHub();
  const after = await row(running.id);
  assert.equal(after.lifecycle, "running");
  assert.equal(after.pid, before.pid, "the same process");
  const ended = await rowWhere(quitting.id, "the exit recorded", (r) => r.lifecycle === "done");
  assert.equal(ended.exitCode, 0);

  await suite.daemon.kill("SIGTERM");
  await suite.daemon.start();
  await reconnectHub();
  assert.equal((await row(running.id)).pid, before.pid, "SIGTERM leaves the jobs running too");
  for (const id of [running.id, quitting.id]) await ok("rm", { id });
});
