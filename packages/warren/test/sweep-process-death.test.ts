import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { poolProcessesOf, readRecords, runWarren, startWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-death-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a run whose process dies is an error of that run alone; the sweep goes on and a restart plays it", async () => {
  const mixes = join(root, "slow.json");
  // About two seconds a run: long enough to die in.
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 5 }] }));
  const out = join(root, "out");
  const args = ["sweep", "signal_relay", "--seeds", "1-3", "--workers", "1", "--agents", mixes, "--out", out];
  const sweep = startWarren(args);
  let pool: number[] = [];
  while (pool.length === 0) {
    pool = poolProcessesOf(sweep.child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The first run is the process's from the moment it is sent, loaded or not: it dies with it.
  process.kill(pool[0]!, "SIGKILL");
  const { code } = await sweep.exited;
  assert.equal(code, 1, sweep.stderr());
  assert.match(
    sweep.stderr(),
    /signal_relay\/solution\/1: the run's process exited \(SIGKILL\) while playing signal_relay\/solution\/1/,
  );
  assert.match(sweep.stderr(), /2\/3 done, 0 failed, 1 errors/);
  assert.deepEqual(
    readRecords(out)
      .map((r) => r.seed)
      .sort(),
    [2, 3],
    "the other runs played on a new process",
  );

  const again = await runWarren(args);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /resuming: 2 of 3 runs already recorded/);
  assert.equal(readRecords(out).length, 3);
});
