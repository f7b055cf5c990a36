import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runKey } from "../src/sweep/sweep-plan.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { redisWithWorker } from "./helpers/redis-server.js";
import {
  assertPassRatesMatch,
  hashOf,
  keysOf,
  RANDOM_ENGINEER,
  sorted,
  sweepTrials,
  writeMixes,
} from "./helpers/sweep-trials.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

// Each (seed, trial) of a sweep replays alike: again in this process, on a resume, on a queue's
// worker. Pass@k and the trial's other uses: sweep-trials.

const root = mkdtempSync(join(tmpdir(), "warren-sweep-trials-replay-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("random draws anew on each trial and alike on each replay; more trials and a resume play exactly the missing (seed, trial) pairs", async () => {
  const mixes = writeMixes(root, "random.json", [
    { name: "solution" },
    { name: "random-engineer", random: ["engineer-1"] },
  ]);
  const out = join(root, "random");
  // One process for a sweep of a few short runs: a second costs its start and saves nothing.
  const sweep = (trials: number) =>
    sweepTrials("bridge_repair", "1-3", trials, mixes, out, ["--workers", "1"]);
  const first = await sweep(2);
  assert.equal(first.code, 0, first.stderr);
  const played = new Map(readRecords(out).map((r) => [r.key, r]));
  assert.deepEqual(
    sorted(played.keys()),
    sorted(keysOf("bridge_repair", ["solution", "random-engineer"], [1, 2, 3], [0, 1])),
  );
  for (const seed of [1, 2, 3]) {
    const random = (trial: number) => played.get(runKey("bridge_repair", "random-engineer", seed, trial))!;
    assert.notEqual(
      random(0).log_hash,
      random(1).log_hash,
      `seed ${seed}: another trial, another random play`,
    );
    for (const trial of [0, 1]) {
      assert.equal(random(trial).log_hash, await hashOf(seed, trial, RANDOM_ENGINEER), random(trial).key);
    }
    assert.equal(
      played.get(runKey("bridge_repair", "solution", seed, 1))!.log_hash,
      played.get(runKey("bridge_repair", "solution", seed, 0))!.log_hash,
    );
  }
  // Trial 0 is the run warren run plays, as before there were trials.
  const solo = await runWarren([
    "run",
    "bridge_repair",
    "--seed",
    "2",
    "--policy",
    "engineer-1=random",
    "--json",
  ]);
  assert.equal(JSON.parse(solo.stdout).log_hash, played.get("bridge_repair/random-engineer/2")!.log_hash);

  // A third trial for the finished sweep: only the third trials are played.
  const recordsFile = join(out, "runs.jsonl");
  const before = readFileSync(recordsFile, "utf8");
  const more = await sweep(3);
  assert.equal(more.code, 0, more.stderr);
  assert.match(more.stderr, /resuming: 12 of 18 runs already recorded/);
  assert.ok(
    readFileSync(recordsFile, "utf8").startsWith(before),
    "the earlier records are kept as they were",
  );
  const added = readRecords(out).slice(played.size);
  assert.deepEqual(
    sorted(added.map((r) => r.key)),
    sorted(keysOf("bridge_repair", ["solution", "random-engineer"], [1, 2, 3], [2])),
  );

  // Runs lost from the folder, as a kill loses them: a restart plays exactly those (seed, trial) pairs, alike.
  const all = readRecords(out);
  const lost = [
    "bridge_repair/random-engineer/2#1",
    "bridge_repair/solution/3",
    "bridge_repair/random-engineer/1#2",
  ];
  const kept = all.filter((r) => !lost.includes(r.key));
  writeFileSync(recordsFile, kept.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const resumed = await sweep(3);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming: 15 of 18 runs already recorded/);
  const replayed = readRecords(out).slice(kept.length);
  assert.deepEqual(sorted(replayed.map((r) => r.key)), sorted(lost));
  for (const r of replayed) {
    assert.equal(
      r.log_hash,
      all.find((earlier) => earlier.key === r.key)!.log_hash,
      `${r.key} replays alike`,
    );
  }

  const summary = JSON.parse(resumed.stdout) as SweepSummary & { resumed: number };
  assert.equal(summary.resumed, 15);
  assert.equal(summary.trials, 3);
  assertPassRatesMatch(summary, readRecords(out), 3);
});

test("a queued sweep carries each run's trial to its worker: the hashes of local play", async (t) => {
  const { url, worker } = await redisWithWorker(t);
  const mixes = writeMixes(root, "queued.json", [{ name: "random-engineer", random: ["engineer-1"] }]);
  const out = join(root, "queued");
  const sweep = await sweepTrials("bridge_repair", "1-2", 2, mixes, out, ["--queue", url]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const records = readRecords(out);
  assert.equal(records.length, 4);
  for (const r of records) assert.equal(r.log_hash, await hashOf(r.seed, r.trial!, RANDOM_ENGINEER), r.key);
  assert.equal(worker.stderr().match(/took /g)?.length, 4);
  const summary = JSON.parse(sweep.stdout) as SweepSummary;
  assert.equal(summary.trials, 2);
  assertPassRatesMatch(summary, records, 2);
});
