// The fault suite's long-form runner never waits for ever: a file that never ends is killed at its
// limit, what it started is found and killed, and the run fails; a file whose test failed with its
// daemon running ends at once and takes the daemon, its host and its job with it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { processesMentioning } from "./helpers/leftovers.js";

const RUNNER = fileURLToPath(new URL("run-faults.ts", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/fault-runner/${name}`, import.meta.url));
/** Runs the runner on one file with a time limit; its exit code, its output and how long it took. */
async function runnerOn(file: string, limitMs: number, marker: string) {
  const started = Date.now();
  const run = spawn(process.execPath, ["--import", "tsx", RUNNER, fixture(file)], {
    env: { ...process.env, ROOST_FAULT_FILE_LIMIT_MS: String(limitMs), FAULT_RUNNER_TEST: marker },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  run.stdout.on("data", (d) => (output += d));
  run.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => run.once("close", resolve));
  return { code, output, ms: Date.now() - started };
}

test("a file that never ends is ended at its limit and what it left is killed; one that failed with its daemon running ends at once with it: each run fails, nothing is left", async () => {
  // In the environment of everything a run starts: what is left of it can be found.
  const marker = `fault-runner-test-${process.pid}-${Date.now()}`;
  const hangLimitMs = 10_000;
  const [hangs, leaves] = await Promise.all([
    runnerOn("hangs.ts", hangLimitMs, marker),
    runnerOn("leaves-daemon.ts", 120_000, marker),
  ]);

  assert.equal(hangs.code, 1, hangs.output);
  assert.match(hangs.output, /test timed out after \d+ms/, hangs.output);
  assert.match(hangs.output, /✖ left running: \d+ sleep 600/, hangs.output);
  assert.match(hangs.output, /hangs\.ts +FAILED, LEFT 1 RUNNING /, hangs.output);
  assert.ok(hangs.ms < hangLimitMs + 20_000, `the run took ${hangs.ms} ms`);

  // Before, such a file never ended: its daemon, a child of its process, kept it alive.
  assert.equal(leaves.code, 1, leaves.output);
  assert.match(leaves.output, /failed on purpose, its daemon left running/, leaves.output);
  assert.match(leaves.output, /leaves-daemon\.ts +FAILED +1 tests/, leaves.output);
  assert.doesNotMatch(leaves.output, /TIMED OUT|✖ left running:/, leaves.output);

  assert.deepEqual(processesMentioning(marker), [], "nothing a run started is left");
});
