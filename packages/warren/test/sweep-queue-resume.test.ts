import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { redisWithWorker } from "./helpers/redis-server.js";
import { readRecords, runWarren, startWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-queue-resume-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a queued sweep killed and started again collects the runs finished meanwhile without queueing them again", async (t) => {
  const { url, worker } = await redisWithWorker(t);
  const mixes = join(root, "paced-resume.json");
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 200 }] }));
  const out = join(root, "queued-resume");
  const args = [
    "sweep",
    "bridge_repair",
    "signal_relay",
    "--seeds",
    "1-6",
    "--agents",
    mixes,
    "--queue",
    url,
    "--out",
    out,
  ];
  const first = startWarren(args);
  await worker.waitForStderr(/finished /, 2);
  first.child.kill("SIGKILL");
  await first.exited;
  // The worker plays the rest while no sweep listens.
  await worker.waitForStderr(/finished /, 12);

  const second = await runWarren([...args, "--json"]);
  assert.equal(second.code, 0, second.stderr);
  const records = readRecords(out);
  assert.equal(records.length, 12);
  assert.equal(new Set(records.map((r) => r.key)).size, 12);
  assert.equal(worker.stderr().match(/took /g)?.length, 12, "no run was queued or played twice");
  assert.equal(JSON.parse(second.stdout).runs, 12);
});
