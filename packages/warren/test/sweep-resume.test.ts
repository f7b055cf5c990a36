import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { headless } from "./helpers/engine-runs.js";
import { readRecords, runWarren, startWarren } from "./helpers/warren-process.js";

const SCENARIOS = ["bridge_repair", "signal_relay", "harvest_rush"];

const root = mkdtempSync(join(tmpdir(), "warren-sweep-resume-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a sweep killed part-way resumes and plays only the runs still missing", async () => {
  const out = join(root, "resumed");
  // Paced so that the sweep is still going when it is killed (pace never changes a run).
  const mixes = join(root, "paced.json");
  writeFileSync(mixes, JSON.stringify({ mixes: [{ name: "solution", pace: 500 }] }));
  const args = ["sweep", ...SCENARIOS, "--seeds", "1-20", "--workers", "1", "--agents", mixes, "--out", out];
  const first = startWarren(args);
  const recordsFile = join(out, "runs.jsonl");
  while (!existsSync(recordsFile) || readRecords(out).length < 5) {
    const ended = await Promise.race([first.exited, new Promise((r) => setTimeout(r, 20, undefined))]);
    assert.equal(ended, undefined, `the sweep ended before it was killed: ${first.stderr()}`);
  }
  first.child.kill("SIGKILL");
  assert.equal((await first.exited).signal, "SIGKILL");
  const before = readFileSync(recordsFile, "utf8");
  const kept = readRecords(out);
  assert.ok(kept.length >= 5 && kept.length < 60, `${kept.length} runs recorded before the kill`);

  const second = await runWarren([...args, "--json"]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, new RegExp(`resuming: ${kept.length} of 60 runs already recorded`));
  assert.equal(JSON.parse(second.stdout).resumed, kept.length);
  const records = readRecords(out);
  assert.equal(records.length, 60, "each run is recorded once");
  assert.equal(new Set(records.map((r) => r.key)).size, 60);
  assert.ok(
    readFileSync(recordsFile, "utf8").startsWith(before),
    "the earlier records are kept as they were",
  );
  for (const r of records.slice(kept.length, kept.length + 5)) {
    assert.equal(r.log_hash, (await headless(r.scenario, r.seed)).log_hash, r.key);
  }
});
