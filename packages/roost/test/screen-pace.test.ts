import assert from "node:assert/strict";
import { test } from "node:test";
import { SCREEN_PACE_MS, ScreenPace } from "../src/daemon/host/screen-pace.js";

interface FakeJob {
  name: string;
  screenToldAt: number;
}

/** A pace whose tells are recorded, with the time each came. */
function recorded(): { pace: ScreenPace<FakeJob>; tells: { at: number; jobs: string[] }[] } {
  const tells: { at: number; jobs: string[] }[] = [];
  const pace = new ScreenPace<FakeJob>((jobs) =>
    tells.push({ at: performance.now(), jobs: jobs.map((j) => j.name) }),
  );
  return { pace, tells };
}

const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

test("changes that come together are told once, the jobs due together in one tell", async () => {
  const { pace, tells } = recorded();
  const a = { name: "a", screenToldAt: -Infinity };
  const b = { name: "b", screenToldAt: -Infinity };
  for (let i = 0; i < 10; i++) pace.changed(a);
  pace.changed(b);
  await until(() => tells.length > 0);
  await new Promise((resolve) => setTimeout(resolve, SCREEN_PACE_MS * 2));
  assert.deepEqual(
    tells.map((t) => t.jobs),
    [["a", "b"]],
  );
});

test("a job that keeps changing is told at most once a pace", async () => {
  const { pace, tells } = recorded();
  const busy = { name: "busy", screenToldAt: -Infinity };
  const started = performance.now();
  while (tells.length < 4) {
    pace.changed(busy);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  for (let i = 1; i < tells.length; i++) {
    // Never sooner than the pace (a timer may fire a ms early); later is the machine's load.
    assert.ok(tells[i]!.at - tells[i - 1]!.at >= SCREEN_PACE_MS - 1.5, `tell ${i}`);
  }
  assert.ok(performance.now() - started >= 3 * (SCREEN_PACE_MS - 1.5));
});

test("a forgotten job is not told; a quiet job is not held behind a busy one's pace", async () => {
  const { pace, tells } = recorded();
  const gone = { name: "gone", screenToldAt: -Infinity };
  pace.changed(gone);
  pace.forget(gone);
  const toldAt = performance.now();
  const busy = { name: "busy", screenToldAt: toldAt };
  pace.changed(busy);
  const quiet = { name: "quiet", screenToldAt: -Infinity };
  pace.changed(quiet);
  await until(() => tells.some((t) => t.jobs.includes("busy")));
  // The quiet job's tell is the first, whether the busy one's pace has passed by then or not.
  assert.ok(tells[0]!.jobs.includes("quiet"));
  const busyTell = tells.find((t) => t.jobs.includes("busy"))!;
  assert.ok(busyTell.at - toldAt >= SCREEN_PACE_MS - 1.5);
  assert.ok(tells.every((t) => !t.jobs.includes("gone")));
});
