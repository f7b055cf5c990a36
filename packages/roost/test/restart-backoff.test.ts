/**
 * The supervisor's restarts, against a fake process host on a mocked clock: a crash restarts the job
 * after 250 ms, the next after 500 ms, the third in a row gives up; a run of 30 s clears the count;
 * a reply's wake starts an ended job with its count cleared. The store is a real one in a temp folder.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, mock, test } from "node:test";
import type { HostJobInfo, HostSpawnSpec, ProcessHost, ProcessHostEvents } from "../src/daemon/host/api.js";
import { DaemonState } from "../src/daemon/jobs/daemon-state.js";
import { type Job, jobFromRecord } from "../src/daemon/jobs/job.js";
import { newRecord } from "../src/daemon/jobs/new-record.js";
import { Supervisor } from "../src/daemon/jobs/supervisor.js";
import { Store } from "../src/daemon/store/store.js";
import { TerminalRows } from "../src/daemon/terminal/terminal-rows.js";
import { statePaths } from "../src/home/paths.js";

/** A process host that runs nothing: it records each spawn, and the test says when a process exits. */
class FakeHost {
  readonly hostPid = 1;
  readonly responsive = true;
  readonly spawns: { id: string; at: number }[] = [];
  private readonly exits: ProcessHostEvents["exit"][] = [];

  async spawn(spec: HostSpawnSpec): Promise<HostJobInfo> {
    this.spawns.push({ id: spec.id, at: Date.now() });
    return {
      id: spec.id,
      pid: 1000 + this.spawns.length,
      running: true,
      exitCode: null,
      signal: null,
      startedAt: Date.now(),
    };
  }

  /** The job's process ends with this exit code. */
  exit(id: string, exitCode: number): void {
    for (const listener of this.exits) listener(id, exitCode, null);
  }

  on(event: keyof ProcessHostEvents, listener: ProcessHostEvents[keyof ProcessHostEvents]): void {
    if (event === "exit") this.exits.push(listener as ProcessHostEvents["exit"]);
  }

  off(): void {}

  /** A SIGTERM ends the process, its exit told just after the kill's answer, as the real host does. */
  async kill(id: string, signal?: NodeJS.Signals): Promise<void> {
    if (signal === "SIGTERM") queueMicrotask(() => this.exit(id, 143));
  }
  async list(): Promise<HostJobInfo[]> {
    return [];
  }
  async serialize(): Promise<string> {
    return "";
  }
  async forget(): Promise<void> {}
  async remove(): Promise<void> {}
  async close(): Promise<void> {}
}

let home: string;
let store: Store;
let state: DaemonState;
let host: FakeHost;
let supervisor: Supervisor;

beforeEach(async () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.parse("2026-11-30T10:00:00Z") });
  home = mkdtempSync(join(tmpdir(), "roost-backoff-"));
  const paths = statePaths(home);
  mkdirSync(paths.jobsDir, { recursive: true });
  store = new Store(paths.db);
  state = new DaemonState(paths, store);
  host = new FakeHost();
  supervisor = new Supervisor(
    state,
    async () => host as unknown as ProcessHost,
    (line) => process.stderr.write(`${line}\n`),
    new TerminalRows(state),
  );
  await supervisor.attach();
});

afterEach(async () => {
  await supervisor.close(false);
  mock.timers.reset();
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

function protocolJob(id: string): Job {
  const dir = join(state.paths.jobsDir, id);
  mkdirSync(dir);
  const job = jobFromRecord(
    newRecord(
      {
        id,
        name: id,
        profile: "crasher",
        kind: "protocol",
        cwd: home,
        task: null,
        command: ["false"],
        env: {},
        dir,
        lifecycle: "starting",
        order: 0,
      },
      new Date().toISOString(),
    ),
    [],
    "resumes",
  );
  state.jobs.set(id, job);
  return job;
}

/** Lets the promises the last step set off settle (the mocked clock does not move meanwhile). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Moves the mocked clock on and lets what it fired settle. */
async function advance(ms: number): Promise<void> {
  mock.timers.tick(ms);
  await settle();
}

test("crashes restart after 250 ms, then 500 ms; the third in a row gives up", async () => {
  const job = protocolJob("a1");
  await supervisor.start(job);
  assert.equal(job.lifecycle, "running");
  const started = Date.now();

  host.exit(job.id, 1);
  assert.equal(job.lifecycle, "starting", "waiting to restart");
  assert.equal(job.restarts, 1);
  await advance(249);
  assert.equal(host.spawns.length, 1, "not restarted before 250 ms");
  await advance(1);
  assert.equal(host.spawns.length, 2);
  assert.equal(host.spawns[1]!.at - started, 250);
  assert.equal(job.lifecycle, "running");

  host.exit(job.id, 1);
  await advance(499);
  assert.equal(host.spawns.length, 2, "the second waits twice as long");
  await advance(1);
  assert.equal(host.spawns.length, 3);

  host.exit(job.id, 1);
  assert.equal(job.lifecycle, "failed");
  assert.match(job.error ?? "", /^crashed 3 times in a row \(last: exit code 1\); gave up$/);
  await advance(10_000);
  assert.equal(host.spawns.length, 3, "given up: never started again");
});

test("a run of 30 s clears the count: the next crash restarts after 250 ms again", async () => {
  const job = protocolJob("b1");
  await supervisor.start(job);
  host.exit(job.id, 1);
  await advance(250);
  host.exit(job.id, 1);
  await advance(500);
  assert.equal(host.spawns.length, 3);
  assert.equal(job.crashStreak, 2);

  await advance(30_000);
  host.exit(job.id, 1);
  assert.equal(job.lifecycle, "starting", "not given up: the run was stable");
  assert.equal(job.crashStreak, 1);
  await advance(250);
  assert.equal(host.spawns.length, 4);
});

test("an exit of 0 is done, and waking the ended job starts it once with its count cleared", async () => {
  const job = protocolJob("c1");
  await supervisor.start(job);
  host.exit(job.id, 1);
  await advance(250);
  host.exit(job.id, 0);
  assert.equal(job.lifecycle, "done");
  assert.equal(job.crashStreak, 1);

  const waking = supervisor.wake(job);
  assert.ok(waking, "an ended job wakes");
  assert.equal(supervisor.wake(job), null, "a job starting already is not woken twice");
  await waking;
  assert.equal(job.lifecycle, "running");
  assert.equal(job.crashStreak, 0);
  assert.equal(host.spawns.length, 3);

  // Answered once the SIGTERM's exit is recorded.
  await supervisor.stop(job);
  assert.equal(job.lifecycle, "stopped");
  assert.equal(supervisor.wake(job), null, "a stopped job stays stopped");
});

test("only the job's record is saved: its runtime state is not in the store", async () => {
  const job = protocolJob("d1");
  // The compiler refuses a job where the store takes a record (this is checked by the build).
  // @ts-expect-error a job is not its durable record: its runtime state would be written with it
  const saveTheWholeJob = () => store.saveJob(job);
  assert.equal(typeof saveTheWholeJob, "function");
  await supervisor.start(job);
  assert.equal(job.record.lifecycle, "running", "the job's fields are its record's");
  assert.ok(!("connection" in job.record) && !("restartTimer" in job.record));
  await store.committed();
  await store.close();
  const reopened = new Store(state.paths.db);
  try {
    const [saved] = reopened.loadJobs();
    assert.equal(saved?.lifecycle, "running");
    assert.deepEqual(
      Object.keys(saved ?? {}).filter((key) => !(key in job.record)),
      [],
      "nothing but the record's fields",
    );
  } finally {
    await reopened.close();
    store = new Store(state.paths.db);
  }
});
