import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { poolProcessesOf, startWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-workers-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("without --workers a sweep plays on as many processes as the machine has cores", async () => {
  const cores = availableParallelism();
  const mixes = join(root, "second.json");
  // signal_relay takes 10 s of sim time: about a second a run, long enough to count the processes.
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 10 }] }));
  const sweep = startWarren([
    "sweep",
    "signal_relay",
    "--seeds",
    `1-${cores}`,
    "--agents",
    mixes,
    "--out",
    join(root, "cores"),
  ]);
  let most = 0;
  let ended = false;
  void sweep.exited.then(() => {
    ended = true;
  });
  while (!ended && most < cores) {
    most = Math.max(most, poolProcessesOf(sweep.child.pid!).length);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { code } = await sweep.exited;
  assert.equal(code, 0, sweep.stderr());
  assert.equal(most, cores, `a process a core (${cores})`);
});
