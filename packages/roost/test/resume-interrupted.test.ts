// Jobs that come back after a reboot: the daemon finds the jobs that were live when its process
// host went down with them `interrupted` (and no other), and `roost resume` starts them again as a
// respawn does, saying which came back and which could not, and why. A daemon killed alone leaves
// no interrupted job. `resumeAfterReboot` does the resume by itself.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { readResumeAfterReboot } from "../src/home/reboot-settings.js";
import {
  type Message,
  type RawConnection,
  receivedBy,
  startTestDaemon,
  TEST_PROFILES,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { reboot } from "./helpers/reboot.js";

async function rowsOf(conn: RawConnection): Promise<Map<string, Message>> {
  const rows: Message[] = (await conn.request("list")).result.rows;
  return new Map(rows.map((row) => [row.name, row]));
}

async function dispatched(conn: RawConnection, args: Record<string, unknown>): Promise<string> {
  const answer = await conn.request("dispatch", args);
  assert.equal(answer.ok, true, JSON.stringify(answer));
  return answer.result.id;
}

/** Waits until every row named is as `accept` says. */
async function rowsWhen(
  conn: RawConnection,
  names: string[],
  accept: (row: Message) => boolean,
  what: string,
): Promise<Map<string, Message>> {
  return waitFor(what, async () => {
    const rows = await rowsOf(conn);
    return names.every((name) => rows.has(name) && accept(rows.get(name)!)) ? rows : undefined;
  });
}

/** How many replies the store on disk keeps for the job (a task not yet acked is one). */
function repliesKept(daemon: TestDaemon, id: string): number {
  const db = new Database(join(daemon.stateDir, "roost.db"), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM replies WHERE job_id = ?").get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The fixture agent's received texts, by its job's folder. */
const received = (daemon: TestDaemon, id: string) =>
  receivedBy(join(daemon.stateDir, "jobs", id)).map((r) => r.text);

test("a daemon killed alone: its jobs are taken up where they run, none interrupted", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  t.after(() => daemon.stop());
  let conn = await daemon.connect();
  await dispatched(conn, { profile: "sleeper", name: "sleeps" });
  await dispatched(conn, { profile: "quitter", name: "quits" });
  const before = await rowsWhen(
    conn,
    ["sleeps", "quits"],
    (r) => r.lifecycle === (r.name === "quits" ? "done" : "running"),
    "one running, one done",
  );
  conn.close();
  await daemon.kill("SIGKILL");
  await daemon.start();
  conn = await daemon.connect();
  t.after(() => conn.close());
  const after = await rowsOf(conn);
  assert.equal(after.get("sleeps")!.lifecycle, "running");
  assert.equal(after.get("sleeps")!.pid, before.get("sleeps")!.pid, "in the process it started in");
  assert.equal(after.get("quits")!.lifecycle, "done");
  const none = await daemon.cli(["resume", "--all"]);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout, "nothing to resume: no job is interrupted\n");
});

test("a reboot: the live jobs are interrupted and the ended ones as they were; resume says which came back and why the others did not", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  t.after(() => daemon.stop());
  const folder = mkdtempSync(join(tmpdir(), "roost-resume-folder-"));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  let conn = await daemon.connect();
  const agent = await dispatched(conn, { profile: "agent", name: "agent", task: "first" });
  await dispatched(conn, { profile: "sleeper", name: "sleeps" });
  await dispatched(conn, { profile: "sleeper", name: "homeless", cwd: folder });
  await dispatched(conn, { profile: "quitter", name: "quits" });
  await dispatched(conn, { profile: "sleeper", name: "halted" });
  await rowsWhen(conn, ["halted"], (r) => r.lifecycle === "running", "halted running");
  assert.equal((await conn.request("stop", { id: "halted" })).ok, true);
  await rowsWhen(
    conn,
    ["agent", "sleeps", "homeless", "quits"],
    (r) => (r.name === "quits" ? r.lifecycle === "done" : r.lifecycle === "running" && r.pid > 0),
    "every job started",
  );
  await waitFor("the agent to take its task", async () =>
    received(daemon, agent).includes("first") ? true : undefined,
  );
  conn.close();

  const killed = await reboot(daemon);
  assert.equal(killed.length, 3, "the three that ran");
  conn = await daemon.connect();
  t.after(() => conn.close());
  const rows = await rowsOf(conn);
  const lifecycles = Object.fromEntries([...rows].map(([name, row]) => [name, row.lifecycle]));
  assert.deepEqual(lifecycles, {
    agent: "interrupted",
    sleeps: "interrupted",
    homeless: "interrupted",
    quits: "done",
    halted: "stopped",
  });
  for (const name of ["agent", "sleeps", "homeless"]) assert.equal(rows.get(name)!.pid, null);
  const ls = await daemon.cli(["ls"]);
  assert.match(ls.stdout, /sleeps +interrupted .*went down with roost or the machine/);
  assert.match(ls.stdout, /\n3 jobs were interrupted \(roost or the machine went down\): roost resume --all/);

  // A reply to an interrupted job starts it again, and it is given the reply once.
  const reply = await conn.request("reply", { id: "agent", text: "while down" });
  assert.deepEqual(reply.result, { seq: 2, saved: true, started: "resumes" });
  await waitFor("the reply taken", async () =>
    received(daemon, agent).includes("while down") ? true : undefined,
  );
  await rowsWhen(conn, ["agent"], (r) => r.pending === 0, "the reply acked");
  assert.deepEqual(received(daemon, agent), ["first", "while down"], "each once, across the reboot");

  for (const args of [[], ["sleeps", "--all"]]) {
    const refused = await daemon.cli(["resume", ...args]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^roost resume: bad_request: name the jobs to resume/);
  }
  rmSync(folder, { recursive: true });
  const named = ["sleeps", "homeless", "agent", "quits", "nobody", "sleeps"];
  const out = await daemon.cli(["resume", ...named, "--json"]);
  assert.equal(out.code, 1, "some could not come back");
  const result = JSON.parse(out.stdout);
  assert.deepEqual(result.resumed, [
    { id: rows.get("sleeps")!.id, name: "sleeps", restart: "reruns", resume: null },
  ]);
  assert.deepEqual(
    result.notResumed.map((n: Message) => [n.job, n.code]),
    [
      ["nobody", "not_found"],
      ["homeless", "not_started"],
      ["agent", "unsupported"],
      ["quits", "unsupported"],
    ],
  );
  const why = new Map(result.notResumed.map((n: Message) => [n.job, n.error]));
  assert.match(
    why.get("homeless") as string,
    new RegExp(`^homeless: could not start: .*cwd ${folder} is not a directory`),
  );
  assert.equal(why.get("agent"), "agent is running, not interrupted: roost respawn agent starts it again");
  assert.equal(why.get("quits"), "quits is done, not interrupted: roost respawn quits starts it again");
  const after = await rowsWhen(
    conn,
    ["sleeps"],
    (r) => r.lifecycle === "running" && r.pid > 0,
    "sleeps back",
  );
  assert.equal(after.get("homeless")!.lifecycle, "failed");
  assert.equal(after.get("halted")!.lifecycle, "stopped", "a stopped job stays stopped");

  const human = await daemon.cli(["resume", "--all"]);
  assert.equal(human.stdout, "nothing to resume: no job is interrupted\n");
});

test("resumeAfterReboot: the interrupted jobs come back by themselves, and the daemon's log says so", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES, resumeAfterReboot: true } });
  t.after(() => daemon.stop());
  let conn = await daemon.connect();
  const agent = await dispatched(conn, { profile: "agent", name: "agent", task: "first" });
  await dispatched(conn, { profile: "quitter", name: "quits" });
  await rowsWhen(conn, ["agent"], (r) => r.connected, "the agent connected");
  // An ack is kept as it comes, not before it is answered: a crash before it is on disk gives the
  // task again, as the protocol allows. The reboot comes once the agent's ack of its task is kept.
  await waitFor("the task's ack on disk", () => repliesKept(daemon, agent) === 0);
  conn.close();
  await reboot(daemon);
  conn = await daemon.connect();
  t.after(() => conn.close());
  const back = await rowsWhen(conn, ["agent"], (r) => r.connected, "the agent back by itself");
  assert.equal(back.get("quits")!.lifecycle, "done", "an ended job is not started");
  await waitFor("the log line", async () =>
    /roost: resumeAfterReboot: 1 of 1 interrupted jobs resumed/.test(
      readFileSync(join(daemon.stateDir, "daemon.log"), "utf8"),
    )
      ? true
      : undefined,
  );
  assert.deepEqual(received(daemon, agent), ["first"], "its task is not given again");
});

test("readResumeAfterReboot: on only for true; a missing file, bad JSON or another value is off", () => {
  const home = mkdtempSync(join(tmpdir(), "roost-reboot-settings-"));
  try {
    const paths = { config: join(home, "roost.json") };
    assert.equal(readResumeAfterReboot(paths), false, "no file");
    for (const [text, on] of [
      ['{"resumeAfterReboot": true}', true],
      ['{"resumeAfterReboot": "true"}', false],
      ['{"resumeAfterReboot": 1}', false],
      ["{}", false],
      ["null", false],
      ["{not json", false],
    ] as const) {
      writeFileSync(paths.config, text);
      assert.equal(readResumeAfterReboot(paths), on, text);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
