// The store not knowing a job is no reason to end it: a database brought back from a backup taken
// before the job leaves the job running in the process host and its folder in place, logged and
// named by `roost doctor`; `roost doctor --drop` ends and removes them once the person asks.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isProcessAlive } from "../src/home/process.js";
import { startTestDaemon, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { homeWithJob } from "./helpers/home-with-job.js";

test("a job the store does not know is left running and its folder kept; doctor names both; --drop ends them", async () => {
  const { daemon, id, pid, dir } = await homeWithJob();
  try {
    // The store as it was before the job: a fresh home's backup, brought back.
    const fresh = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
    await fresh.kill("SIGTERM");
    const [backup] = JSON.parse((await fresh.cli(["restore", "--list", "--json"])).stdout).backups as {
      file: string;
    }[];
    const restored = await daemon.cli(["restore", "--from", backup!.file]);
    assert.equal(restored.code, 0, restored.stderr);
    await fresh.stop();

    await daemon.start();
    const db = join(daemon.stateDir, "roost.db");
    const inode = statSync(db).ino;
    const busy = await daemon.cli(["restore"]);
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /busy: a roost daemon \(pid \d+\) already runs on .*`roost shutdown` first/);
    assert.equal(statSync(db).ino, inode, "restore changes nothing while a daemon runs");

    const report = JSON.parse((await daemon.cli(["doctor", "--json"])).stdout).findings as {
      check: string;
      status: string;
      found: string;
    }[];
    const log = readFileSync(join(daemon.stateDir, "daemon.log"), "utf8");
    assert.match(
      log,
      new RegExp(
        `the process host's ${id} \\(running, pid ${pid}\\) and the job folders ${id}: unknown to the store, left alone`,
      ),
    );
    assert.ok(isProcessAlive(pid), "the host's job is not killed");
    assert.ok(existsSync(dir), "its folder is not removed");
    const strays = report.find((f) => f.check === "strays")!;
    assert.equal(strays.status, "warn");
    assert.match(strays.found, new RegExp(`${id} \\(running, pid ${pid}\\)`));

    const refused = await daemon.cli(["doctor", "--drop"]);
    assert.match(
      refused.stderr,
      /busy: a roost daemon .* already runs/,
      "dropping waits for the daemon's stop",
    );
    assert.ok(isProcessAlive(pid));
    await daemon.kill("SIGTERM");
    const dropped = await daemon.cli(["doctor", "--drop", "--json"]);
    assert.equal(dropped.code, 0, dropped.stdout + dropped.stderr);
    assert.equal(existsSync(dir), false, "asked, the folder goes");
    await waitFor("asked, the job ends", () => !isProcessAlive(pid));
  } finally {
    await daemon.stop();
  }
});
