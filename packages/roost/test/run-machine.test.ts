/** The supervisor's run states and transitions, and what an exit or a start's answer makes of a job: pure. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type ExitSeen,
  exitOutcome,
  MAX_CRASHES_IN_A_ROW,
  nextRun,
  RESTART_BACKOFF_MS,
  RUN_EVENTS,
  RUN_STATES,
  type RunState,
  STABLE_RUN_MS,
  spawnOutcome,
} from "../src/daemon/jobs/run-machine.js";

test("the transition table: every state and event, as the supervisor moves them", () => {
  const table = Object.fromEntries(
    RUN_STATES.map((state) => [state, RUN_EVENTS.map((event) => nextRun(state, event)).join(" ")]),
  );
  // Columns: start, settled, exit, stop, respawn.
  assert.deepEqual(table, {
    idle: "spawning idle idle stopping respawning",
    spawning: "spawning idle overtaken stopping respawning",
    overtaken: "spawning idle overtaken stopping respawning",
    stopping: "spawning stopping idle stopping respawning",
    respawning: "spawning respawning idle stopping respawning",
  });
});

test("a stop asked for while the start is under way outlasts the start's end", () => {
  let state: RunState = "idle";
  for (const event of ["start", "stop", "settled"] as const) state = nextRun(state, event);
  assert.equal(state, "stopping");
  assert.equal(nextRun(state, "exit"), "idle");
});

test("an exit before the start's answer makes the answer stale; a stopped job's answer ends what started", () => {
  assert.equal(spawnOutcome(nextRun("spawning", "exit"), "starting", true), "stale");
  assert.equal(spawnOutcome("spawning", "stopped", true), "stop");
  assert.equal(spawnOutcome("spawning", "stopped", false), "stop");
  assert.equal(spawnOutcome("spawning", "starting", true), "running");
  assert.equal(spawnOutcome("spawning", "starting", false), "exited");
});

const crashed: ExitSeen = {
  run: "idle",
  lifecycle: "running",
  reported: undefined,
  exitCode: 1,
  signal: null,
  ranMs: 10,
  crashStreak: 0,
};

test("what an exit makes of the job: stopped, started again, done, failed as reported", () => {
  assert.deepEqual(exitOutcome({ ...crashed, run: "stopping" }), { to: "stopped" });
  // A stopped job's process still ending (its stop came after it was marked stopped) is taken.
  assert.deepEqual(exitOutcome({ ...crashed, run: "stopping", lifecycle: "stopped" }), { to: "stopped" });
  assert.deepEqual(exitOutcome({ ...crashed, run: "respawning" }), { to: "respawn" });
  assert.deepEqual(exitOutcome({ ...crashed, reported: "done" }), { to: "done" });
  assert.deepEqual(exitOutcome({ ...crashed, reported: "failed", exitCode: 0 }), { to: "failed" });
  assert.deepEqual(exitOutcome({ ...crashed, exitCode: 0 }), { to: "done" });
  assert.deepEqual(exitOutcome({ ...crashed, exitCode: 0, signal: 0 }), { to: "done" });
  for (const lifecycle of ["done", "failed", "reaped", "stopped"] as const)
    assert.deepEqual(exitOutcome({ ...crashed, lifecycle }), { to: "ignored" }, lifecycle);
});

test("a crash restarts with a doubling backoff, a stable run clears the count, and a third in a row gives up", () => {
  assert.deepEqual(exitOutcome(crashed), { to: "restart", crashStreak: 1, delayMs: RESTART_BACKOFF_MS });
  assert.deepEqual(exitOutcome({ ...crashed, crashStreak: 1 }), {
    to: "restart",
    crashStreak: 2,
    delayMs: RESTART_BACKOFF_MS * 2,
  });
  assert.deepEqual(exitOutcome({ ...crashed, crashStreak: 1, ranMs: STABLE_RUN_MS }), {
    to: "restart",
    crashStreak: 1,
    delayMs: RESTART_BACKOFF_MS,
  });
  assert.deepEqual(
    exitOutcome({ ...crashed, crashStreak: MAX_CRASHES_IN_A_ROW - 1, exitCode: null, signal: 9 }),
    {
      to: "failed",
      crashStreak: MAX_CRASHES_IN_A_ROW,
      gaveUp: `crashed ${MAX_CRASHES_IN_A_ROW} times in a row (last: signal 9); gave up`,
    },
  );
});
