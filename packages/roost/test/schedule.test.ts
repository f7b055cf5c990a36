import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DaemonClient } from "../src/client/daemon-client.js";
import { RoostError, type Schedule } from "../src/protocol/index.js";
import { startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./helpers/daemon.js";

// The daemon reads schedules in its local time zone, and takes its scheduler's clock from this file.
const clockDir = mkdtempSync(join(tmpdir(), "roost-clock-"));
const clockFile = join(clockDir, "now");
process.env.TZ = "Europe/Berlin";
process.env.ROOST_TEST_CLOCK_FILE = clockFile;
const setClock = (iso: string) => writeFileSync(clockFile, `${iso}\n`);

const isCode = (code: string) => (e: unknown) => e instanceof RoostError && e.code === code;

let daemon: TestDaemon;
let hub: DaemonClient;
const connect = async () => {
  hub = await DaemonClient.connect({ home: daemon.home });
};

before(async () => {
  setClock("2026-11-28T10:00:00Z"); // a Saturday, 11:00 in Berlin
  daemon = await startTestDaemon({
    config: { agentProfiles: { quitter: TEST_PROFILES.quitter, sleeper: TEST_PROFILES.sleeper } },
  });
  await connect();
});
after(async () => {
  hub?.close();
  await daemon?.stop();
  rmSync(clockDir, { recursive: true, force: true });
});

const addSchedule = async (when: string, profile: string, extra: Record<string, unknown> = {}) =>
  (await hub.call("schedule-add", { when, launch: { profile, cwd: clockDir }, ...extra })).schedule;
const scheduleOf = async (id: number): Promise<Schedule> =>
  (await hub.call("schedules", {})).schedules.find((s) => s.id === id)!;
const runsOf = async (id: number, why = "run") =>
  (await hub.call("events", {})).events.filter(
    (e) => e.kind === "schedule" && e.scheduleId === id && e.why === why,
  );

describe("schedules", () => {
  test("each form's next run, in local time with the time zone shown", async () => {
    const expected: [string, string][] = [
      ["every 30m", "2026-11-28T11:30:00+01:00"],
      ["daily 18:00", "2026-11-28T18:00:00+01:00"],
      ["weekdays 09:00", "2026-11-30T09:00:00+01:00"],
      ['cron "15 10 * * *"', "2026-11-29T10:15:00+01:00"],
      ['cron "0 12 1 7 *"', "2027-07-01T12:00:00+02:00"],
    ];
    for (const [when, nextAt] of expected) {
      const schedule = await addSchedule(when, "quitter");
      assert.equal(schedule.nextAt, nextAt, when);
      assert.equal(schedule.timeZone, "Europe/Berlin");
      assert.equal(schedule.when, when);
      await hub.call("schedule-rm", { id: schedule.id });
    }
    const listed = await hub.call("schedules", {});
    assert.deepEqual(
      [listed.schedules, listed.timeZone, listed.now],
      [[], "Europe/Berlin", "2026-11-28T11:00:00+01:00"],
    );
  });

  test("a malformed when is bad_request with the reason", async () => {
    const bad: [unknown, RegExp][] = [
      ["every 0m", /at least 1m/],
      ["every 5x", /every takes an amount and m, h or d/],
      ["daily 24:00", /not a time of day/],
      ["weekdays 9", /HH:MM/],
      ['cron "61 * * * *"', /cron "61 \* \* \* \*"/],
      ['cron "* * *"', /needs five fields/],
      ["cron * * * * *", /double quotes/],
      ["hourly", /"hourly" is not a schedule/],
      ["", /non-empty string/],
      [42, /non-empty string/],
    ];
    for (const [when, reason] of bad) {
      await assert.rejects(
        hub.call("schedule-add", { when, launch: { profile: "quitter" } } as never),
        (e: unknown) => isCode("bad_request")(e) && reason.test((e as Error).message),
        String(when),
      );
    }
    await assert.rejects(hub.call("schedule-add", { when: "daily 10:00" } as never), isCode("bad_request"));
    await assert.rejects(hub.call("schedule-rm", { id: 999 }), isCode("not_found"));
    await assert.rejects(hub.call("schedule-pause", { id: "x" }), isCode("bad_request"));
    assert.deepEqual((await hub.call("schedules", {})).schedules, []);
    // At most 100 schedules.
    const made = await Promise.all(Array.from({ length: 100 }, () => addSchedule("daily 03:00", "quitter")));
    await assert.rejects(addSchedule("daily 03:00", "quitter"), isCode("full"));
    await Promise.all(made.map((m) => hub.call("schedule-rm", { id: m.id })));
    assert.deepEqual((await hub.call("schedules", {})).schedules, []);
  });

  test("a due run dispatches once, with a request id made of the schedule and its due time", async () => {
    setClock("2026-11-28T10:58:00Z"); // 11:58 local
    const noon = await addSchedule("daily 12:00", "quitter", { name: "noon" });
    assert.equal(noon.nextAt, "2026-11-28T12:00:00+01:00");
    // A dispatch already made under the run's request id (as a daemon stopped just after it would
    // have): the run comes back with that job, and starts no other.
    const first = await hub.call("dispatch", {
      profile: "quitter",
      name: "made-before",
      requestId: `schedule:${noon.id}:2026-11-28T11:00:00.000Z`,
    });
    setClock("2026-11-28T11:00:20Z");
    const [run] = await waitFor("the noon run", async () => {
      const runs = await runsOf(noon.id);
      return runs.length ? runs : undefined;
    });
    assert.deepEqual(run!.jobs, [first.id]);
    assert.match(run!.text, /^noon: started made-before/);
    const after = await scheduleOf(noon.id);
    assert.deepEqual(
      [after.runs, after.lastDueAt, after.nextAt],
      [1, "2026-11-28T12:00:00+01:00", "2026-11-29T12:00:00+01:00"],
    );
    assert.equal((await hub.call("list", {})).rows.filter((r) => r.name === "made-before").length, 1);
  });

  test("runs missed while the daemon was down: one catch-up run at start, and a restart runs nothing again", async () => {
    const noon = (await hub.call("schedules", {})).schedules.find((s) => s.name === "noon")!;
    // The task board is kept across the same restarts.
    const kept = (await hub.call("task", { action: "add", title: "outlives a restart" })).task!;
    hub.close();
    await daemon.kill("SIGTERM");
    setClock("2026-11-30T11:30:00Z"); // two noons missed (the 29th and the 30th)
    await daemon.start();
    await connect();
    const runs = await waitFor("the catch-up run", async () => {
      const r = await runsOf(noon.id);
      return r.length === 2 ? r : undefined;
    });
    assert.match(runs[1]!.text, /late: due 2026-11-30T12:00:00\+01:00/);
    const caughtUp = await scheduleOf(noon.id);
    assert.deepEqual([caughtUp.runs, caughtUp.lastDueAt], [2, "2026-11-30T12:00:00+01:00"]);
    hub.close();
    await daemon.kill("SIGTERM");
    await daemon.start();
    await connect();
    // The scheduler looks every 50 ms: a few looks later, still the same two runs.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await runsOf(noon.id)).length, 2);
    assert.equal((await scheduleOf(noon.id)).runs, 2);
    const board = (await hub.call("task", { action: "list" })).tasks;
    assert.deepEqual(
      board.map((t) => [t.id, t.title]),
      [[kept.id, "outlives a restart"]],
    );
    const next = (await hub.call("task", { action: "add", title: "after the restart" })).task!;
    assert.equal(next.id, kept.id + 1);
    await hub.call("schedule-rm", { id: noon.id });
  });

  test("pause and resume: nothing runs while paused, and resuming runs nothing missed", async () => {
    setClock("2026-12-01T08:00:00Z");
    const every = await addSchedule("every 30m", "quitter", { name: "half-hourly" });
    const paused = (await hub.call("schedule-pause", { id: every.id })).schedule;
    assert.deepEqual([paused.paused, paused.nextAt], [true, null]);
    setClock("2026-12-01T10:10:00Z");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await runsOf(every.id)).length, 0);
    const resumed = (await hub.call("schedule-resume", { id: every.id })).schedule;
    assert.deepEqual([resumed.paused, resumed.nextAt], [false, "2026-12-01T11:30:00+01:00"]);
    setClock("2026-12-01T10:30:05Z");
    await waitFor("the first run after resuming", async () =>
      (await runsOf(every.id)).length === 1 ? true : undefined,
    );
    assert.equal((await scheduleOf(every.id)).nextAt, "2026-12-01T12:00:00+01:00");
    // schedule-run: now, paused or not.
    await hub.call("schedule-pause", { id: every.id });
    const byHand = await hub.call("schedule-run", { id: every.id });
    assert.equal(byHand.schedule.runs, 2);
    assert.ok((await hub.call("list", {})).rows.some((r) => r.id === byHand.job.id));
    await hub.call("schedule-rm", { id: every.id });
  });

  test("a run skips while the previous job still runs, unless the schedule allows overlap", async () => {
    setClock("2026-12-02T08:00:00Z");
    const single = await addSchedule("every 10m", "sleeper", { name: "single" });
    const overlapping = await addSchedule("every 10m", "sleeper", { name: "overlapping", overlap: true });
    setClock("2026-12-02T08:10:01Z");
    await waitFor("both first runs", async () =>
      (await runsOf(single.id)).length === 1 && (await runsOf(overlapping.id)).length === 1
        ? true
        : undefined,
    );
    const firstJob = (await scheduleOf(single.id)).lastJob!;
    assert.equal(firstJob.name, "single", "a schedule's job is named like the schedule");
    await waitFor("the first job running", async () =>
      (await hub.call("list", {})).rows.find((r) => r.id === firstJob.id)?.lifecycle === "running"
        ? true
        : undefined,
    );
    setClock("2026-12-02T08:20:01Z");
    const [skip] = await waitFor("the skip", async () => {
      const skips = await runsOf(single.id, "skip");
      return skips.length ? skips : undefined;
    });
    assert.equal(skip!.text, `single: skipped, ${firstJob.name} (${firstJob.id}) still runs`);
    await waitFor("the overlapping second run", async () =>
      (await runsOf(overlapping.id)).length === 2 ? true : undefined,
    );
    const [s, o] = [await scheduleOf(single.id), await scheduleOf(overlapping.id)];
    assert.deepEqual([s.runs, s.skips, o.runs, o.skips], [1, 1, 2, 0]);
    for (const row of (await hub.call("list", {})).rows)
      if (row.profile === "sleeper") await hub.call("rm", { id: row.id });
    await hub.call("schedule-rm", { id: single.id });
    await hub.call("schedule-rm", { id: overlapping.id });
  });

  test("a schedule of a missing profile is refused; a run whose profile went says so in the feed", async () => {
    await assert.rejects(addSchedule("every 1m", "no-such-profile"), (err: RoostError) => {
      assert.equal(err.code, "not_found");
      assert.match(
        err.message,
        /no profile "no-such-profile" in .*roost\.json \(profiles: quitter, sleeper, claude, codex, pi\)/,
      );
      return true;
    });
    setClock("2026-12-02T09:00:00Z");
    const config = join(daemon.home, "roost.json");
    const profiles = readFileSync(config, "utf8");
    writeFileSync(config, profiles.replace('"sleeper"', '"no-such-profile"'));
    const ghost = await addSchedule("every 1m", "no-such-profile", { name: "ghost" });
    writeFileSync(config, profiles);
    setClock("2026-12-02T09:01:01Z");
    const [failed] = await waitFor("the failed run", async () => {
      const events = await runsOf(ghost.id, "failed");
      return events.length ? events : undefined;
    });
    assert.match(failed!.text, /^ghost: could not start: not_found: no profile "no-such-profile"/);
    assert.deepEqual(
      [(await scheduleOf(ghost.id)).runs, (await scheduleOf(ghost.id)).nextAt],
      [0, "2026-12-02T10:02:00+01:00"],
    );
    await hub.call("schedule-rm", { id: ghost.id });
  });

  test("the schedule ops are the hub's: a session's connection is refused", async () => {
    const raw = await daemon.connect();
    await raw.request("hello", { protocol: 1, agent: { name: "raw", version: "1" } });
    for (const op of [
      "schedules",
      "schedule-add",
      "schedule-rm",
      "schedule-pause",
      "schedule-resume",
      "schedule-run",
    ]) {
      assert.equal((await raw.request(op, {})).code, "unsupported", op);
    }
    raw.close();
  });

  test("roost schedule in the CLI: add, ls, run, rm, by id or name", async () => {
    setClock("2026-12-03T07:00:00Z");
    let out = await daemon.cli([
      "schedule",
      "add",
      "weekdays 09:00",
      "quitter",
      "the task",
      "--name",
      "standup",
      "--json",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const made = JSON.parse(out.stdout).schedule as Schedule;
    assert.deepEqual(
      [made.name, made.launch.task, made.nextAt],
      ["standup", "the task", "2026-12-03T09:00:00+01:00"],
    );
    out = await daemon.cli(["schedule", "ls"]);
    assert.match(
      out.stdout,
      new RegExp(
        `^${made.id}  standup  weekdays 09:00  next 2026-12-03T09:00:00\\+01:00 \\(Europe/Berlin\\)`,
      ),
    );
    out = await daemon.cli(["schedule", "run", String(made.id), "--json"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).schedule.runs, 1);
    // By its name as well as its id; a name there is not is not_found, naming the ones there are.
    out = await daemon.cli(["schedule", "run", "standup", "--json"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).schedule.id, made.id);
    out = await daemon.cli(["schedule", "pause", "sitdown"]);
    assert.equal(out.code, 1);
    assert.match(
      out.stderr,
      /^roost schedule: not_found: no schedule named "sitdown" \(schedules: standup\)/,
    );
    out = await daemon.cli(["schedule", "rm", "standup"]);
    assert.equal(out.stdout.trim(), `removed schedule ${made.id}`);
  });
});
