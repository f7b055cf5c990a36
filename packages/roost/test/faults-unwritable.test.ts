// A store that cannot write (the database read-only, the disk full): every op that writes answers
// `unwritable`, the daemon's memory shows nothing of the change, and after a restart the store has
// none of it either. The ops are the ones whose record says they keep their writes: a new one
// without a case here fails this test.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import Database from "better-sqlite3";
import { OPS, type OpName } from "../src/protocol/index.js";
import { speakFor } from "./helpers/a2a.js";
import {
  type Message,
  type RawConnection,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { FAULT_PROFILES, fill, killHost, reportFigures, smallDisk } from "./helpers/faults.js";
import { makeRepository } from "./helpers/git-repo.js";
import { strayInHost } from "./helpers/home-with-job.js";

type Session = RawConnection & { token: string };

/** What the fleet holds before the fault: the jobs, a schedule (and a paused one), a task, an order. */
interface Fleet {
  user: RawConnection;
  a: string;
  b: string;
  /** A job the process host went down with. */
  interrupted: string;
  child: string;
  concierge: string;
  schedule: number;
  paused: number;
  /** A job in a git worktree (merged by the `merge` case). */
  worktree: string;
  /** A process of the host the store does not know (adopted by the `adopt` case). */
  stray: string;
  sessions: { a: Session; b: Session; child: Session; concierge: Session };
}

/** Each op that keeps its writes, asked so that it writes (with the fleet as set up). */
const CASES: Record<string, (f: Fleet) => [RawConnection, Record<string, unknown>]> = {
  dispatch: (f) => [f.user, { profile: "mute", name: "new-job" }],
  reply: (f) => [f.user, { id: f.a, text: "a reply" }],
  stop: (f) => [f.user, { id: f.b }],
  rm: (f) => [f.user, { id: f.b }],
  adopt: (f) => [f.user, { id: f.stray }],
  merge: (f) => [f.user, { id: f.worktree }],
  respawn: (f) => [f.user, { id: f.b }],
  resume: (f) => [f.user, { ids: [f.interrupted] }],
  pin: (f) => [f.user, { id: f.a, pinned: true }],
  rename: (f) => [f.user, { id: f.a, name: "renamed" }],
  reorder: (f) => [f.user, { ids: [f.b, f.a] }],
  task: (f) => [f.user, { action: "add", title: "new task" }],
  "schedule-add": (f) => [f.user, { when: "every 30m", launch: { profile: "mute" }, name: "new-schedule" }],
  "schedule-rm": (f) => [f.user, { id: f.schedule }],
  "schedule-pause": (f) => [f.user, { id: f.schedule }],
  "schedule-resume": (f) => [f.user, { id: f.paused }],
  "schedule-run": (f) => [f.user, { id: f.schedule }],
  send: (f) => [f.sessions.a, { to: f.child, message: "a message" }],
  spawn: (f) => [f.sessions.a, { task: "a child", profile: "mute", name: "new-child" }],
  handback: (f) => [f.sessions.child, { state: "done", result: "finished" }],
  watch: (f) => [f.sessions.a, { id: f.child, when: "ended" }],
  concierge: (f) => [f.user, { action: "answer", answer: "never" }],
  "concierge-ask": (f) => [f.user, { text: "what needs me?" }],
  "concierge-suggest": (f) => [f.sessions.concierge, { id: f.b, text: "yes", why: "it asks" }],
  "concierge-reply": (f) => [f.sessions.concierge, { id: f.b, text: "yes", why: "it asks" }],
  "concierge-act": (f) => [
    f.sessions.concierge,
    { what: "dispatch", launch: { profile: "mute", name: "acted" } },
  ],
  "concierge-order": (f) => [f.user, { action: "add", text: "a new order" }],
};

const keptOps = (Object.keys(OPS) as OpName[]).filter((op) => OPS[op].writes === "kept");

async function ok(conn: RawConnection, op: string, args: unknown): Promise<Message> {
  const answer = await conn.request(op, args);
  assert.equal(answer.ok, true, `${op}: ${JSON.stringify(answer)}`);
  return answer.result;
}

async function setUp(daemon: TestDaemon, user: RawConnection): Promise<Fleet> {
  // First, a job the process host went down with: `resume` would bring it back.
  const interrupted = (await ok(user, "dispatch", { profile: "sleeper", name: "interrupted" })).id as string;
  await waitFor("the job to run", async () =>
    ((await ok(user, "list", {})).rows as Message[]).some((r) => r.id === interrupted && r.pid),
  );
  await killHost(daemon);
  const a = (await ok(user, "dispatch", { profile: "mute", name: "a" })).id as string;
  const b = (await ok(user, "dispatch", { profile: "mute", name: "b" })).id as string;
  // Off the small disk: git writes the merge's objects there whatever the store can do.
  const repository = makeRepository();
  const worktree = (
    await ok(user, "dispatch", { profile: "mute", name: "w", cwd: repository, worktree: true })
  ).id as string;
  const sa = await speakFor(daemon, a);
  const child = (await ok(sa, "spawn", { task: "help", profile: "mute", name: "child" })).id as string;
  const concierge = (await ok(user, "concierge", { action: "on", launch: { profile: "mute" } })).job
    .id as string;
  await ok(user, "concierge", { action: "answer", answer: "always" });
  await ok(user, "concierge", { action: "act", act: true });
  const schedule = (
    await ok(user, "schedule-add", { when: "every 1h", launch: { profile: "mute" }, name: "s" })
  ).schedule.id as number;
  const paused = (
    await ok(user, "schedule-add", { when: "every 2h", launch: { profile: "mute" }, name: "p" })
  ).schedule.id as number;
  await ok(user, "schedule-pause", { id: paused });
  await ok(user, "task", { action: "add", title: "a task" });
  await ok(user, "concierge-order", { action: "add", text: "an order" });
  const stray = (await strayInHost(daemon)).id;
  sa.close();
  // The concierge's digest of all this comes 2 s after it, and stays in flight (its agent never
  // acks): it is waited for, so that the fleet as seen before the fault is the fleet as it stays.
  await waitFor("the concierge's digest", async () => {
    const rows = (await ok(user, "list", {})).rows as Message[];
    return rows.find((r) => r.id === concierge)?.pending === 1;
  });
  // Shown as pending once asked, kept a moment later: the fault must come after it is on disk, or
  // its own write fails with the others and takes it back out of memory.
  await waitFor("the concierge's digest on disk", () => digestsKept(daemon, concierge) === 1);
  return {
    user,
    a,
    b,
    interrupted,
    child,
    concierge,
    schedule,
    paused,
    worktree,
    stray,
    sessions: await sessions(daemon, { a, b, child, concierge }),
  };
}

/** Connections speaking for the jobs (again, after a restart); `b` asks a question. */
async function sessions(
  daemon: TestDaemon,
  ids: { a: string; b: string; child: string; concierge: string },
): Promise<Fleet["sessions"]> {
  const sb = await speakFor(daemon, ids.b, {
    state: "blocked",
    status: "waiting",
    waitingFor: "question",
    question: "Deploy now?",
    agentItems: true,
  });
  return {
    b: sb,
    a: await speakFor(daemon, ids.a),
    child: await speakFor(daemon, ids.child),
    concierge: await speakFor(daemon, ids.concierge),
  };
}

/** What a person sees of the fleet: rows, schedules, the board, orders and the concierge's policy. */
async function seen(user: RawConnection) {
  const rows = ((await ok(user, "list", {})).rows as Message[])
    .map((r) => ({
      id: r.id,
      name: r.name,
      pinned: r.pinned,
      order: r.order,
      pending: r.pending,
      lifecycle: r.lifecycle,
      suggested: r.suggested?.text ?? null,
    }))
    .sort((x, y) => x.id.localeCompare(y.id));
  const schedules = ((await ok(user, "schedules", {})).schedules as Message[]).map((s) => [
    s.id,
    s.name,
    s.paused,
  ]);
  const tasks = ((await ok(user, "task", { action: "list" })).tasks as Message[]).map((t) => [
    t.id,
    t.title,
    t.state,
  ]);
  const orders = ((await ok(user, "concierge-order", { action: "list" })).orders as Message[]).map((o) => [
    o.id,
    o.text,
  ]);
  const { policy, answered } = await ok(user, "concierge", { action: "status" });
  return { rows, schedules, tasks, orders, policy, answered };
}

/** How many digests the store keeps for the job. */
function digestsKept(daemon: TestDaemon, jobId: string): number {
  const db = new Database(join(daemon.stateDir, "roost.db"), { readonly: true });
  try {
    const kept = db
      .prepare("SELECT count(*) AS n FROM replies WHERE job_id = ? AND kind = 'digest'")
      .get(jobId) as { n: number };
    return kept.n;
  } finally {
    db.close();
  }
}

/** The rows of the store's tables that a person does not see through an op. */
function storeRows(daemon: TestDaemon): Record<string, number> {
  const db = new Database(join(daemon.stateDir, "roost.db"), { readonly: true });
  try {
    return Object.fromEntries(
      ["peer_watches", "replies", "jobs"].map((t) => [
        t,
        (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

const STATE_FILES = ["roost.db", "roost.db-wal", "roost.db-shm"];

interface Fault {
  name: string;
  /** The home, or why this machine cannot make the fault. */
  home(): { home: string; cleanUp(): void } | string;
  /** Makes the store unable to write; the daemon (stopped or not) runs again after it. */
  apply(daemon: TestDaemon): Promise<void>;
  lift(daemon: TestDaemon): Promise<void>;
}

const readOnly: Fault = {
  name: "read-only database",
  home: () => {
    if (process.getuid?.() !== 0) return "the database is made read-only with chattr +i, which needs root";
    const disk = smallDisk("32m");
    if (typeof disk === "string") return disk;
    const home = join(disk.path, "home");
    mkdirSync(home);
    return { home, cleanUp: () => disk.unmount() };
  },
  apply: (daemon) => restartedImmutable(daemon, "+i"),
  lift: (daemon) => restartedImmutable(daemon, "-i"),
};

/** The daemon stopped, the database's files given (`+i`) or rid of (`-i`) the immutable flag, and started again. */
async function restartedImmutable(daemon: TestDaemon, flag: "+i" | "-i"): Promise<void> {
  // As root a file's mode does not stop a write: the immutable flag does, from the next open.
  await daemon.kill("SIGTERM");
  for (const file of STATE_FILES) {
    const path = join(daemon.stateDir, file);
    if (existsSync(path)) execFileSync("chattr", [flag, path]);
  }
  await daemon.start();
}

let filler = "";
const fullDisk: Fault = {
  name: "full disk",
  home: () => {
    const disk = smallDisk("32m");
    if (typeof disk === "string") return disk;
    const home = join(disk.path, "home");
    mkdirSync(home);
    filler = join(disk.path, "filler");
    return { home, cleanUp: () => disk.unmount() };
  },
  apply: async (daemon) => {
    // The log emptied first: a write must then grow it, on a disk with no room left.
    const db = new Database(join(daemon.stateDir, "roost.db"));
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    fill(filler);
  },
  lift: async (daemon) => {
    rmSync(filler);
    await daemon.kill("SIGKILL");
    await daemon.start();
  },
};

async function tryEveryWrite(t: TestContext, fault: Fault) {
  const made = fault.home();
  if (typeof made === "string") {
    // Only where the machine cannot make the fault (not root: no chattr, no tmpfs mount); the
    // reason, printed in the output, says which. It runs here and in CI, as root.
    t.skip(made);
    return;
  }
  const daemon = await startTestDaemon({ home: made.home, config: { agentProfiles: FAULT_PROFILES } });
  let user = await daemon.connect();
  const conns: RawConnection[] = [user];
  t.after(async () => {
    for (const conn of conns) conn.close();
    // The disk goes once the daemon, its host and its jobs have.
    await daemon.stop().finally(() => made.cleanUp());
  });
  let fleet = await setUp(daemon, user);
  conns.push(...Object.values(fleet.sessions));
  const before = await seen(user);
  const storeBefore = storeRows(daemon);

  await fault.apply(daemon);
  user = await daemon.connect();
  conns.push(user);
  fleet = { ...fleet, user, sessions: await sessions(daemon, fleet) };
  conns.push(...Object.values(fleet.sessions));
  assert.deepEqual(await seen(user), before, "the daemon holds what the store has");

  const feedCursor = (await ok(user, "events", { limit: 1 })).cursor as number;
  const answers: Record<string, string> = {};
  for (const op of keptOps) {
    const ask = CASES[op];
    assert.ok(ask, `op ${op} keeps its writes: it needs a case in this test`);
    const [conn, args] = ask(fleet);
    const answer = await conn.request(op, args);
    answers[op] = answer.ok ? "ok" : answer.code;
    assert.equal(answer.ok, false, `${op} answered ${JSON.stringify(answer.result)} on a ${fault.name}`);
    assert.equal(answer.code, "unwritable", `${op}: ${answer.error}`);
    assert.match(answer.error, /the store could not write: .*(readonly|full)/);
  }
  assert.deepEqual(await seen(user), before, "the daemon's memory holds none of the changes");
  assert.deepEqual(
    (await ok(user, "events", { after: feedCursor })).events,
    [],
    "the feed shows none of them",
  );

  await fault.lift(daemon);
  user = await daemon.connect();
  conns.push(user);
  const after = await seen(user);
  assert.deepEqual(after, before, "the store holds none of the changes after a restart");
  assert.deepEqual(storeRows(daemon), storeBefore);
  // And it writes again.
  assert.equal((await user.request("task", { action: "add", title: "after" })).ok, true);
  reportFigures(t, {
    fault: fault.name,
    "kinds of writes": keptOps.length,
    refused: Object.values(answers).filter((code) => code === "unwritable").length,
    lost: 0,
    "kept though refused": 0,
  });
}

test("every op that writes names a case here", () => {
  assert.deepEqual(
    keptOps.filter((op) => !CASES[op]),
    [],
  );
  assert.deepEqual(
    Object.keys(CASES).filter((op) => !keptOps.includes(op as OpName)),
    [],
  );
});

for (const fault of [readOnly, fullDisk])
  test(`a ${fault.name}: every kind of write answers unwritable and is absent from memory and, after a restart, from the store`, (t) =>
    tryEveryWrite(t, fault));
