import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { RunRecord } from "../src/sweep/run-record.js";
import { SweepDir } from "../src/sweep/sweep-dir.js";
import { formatDuration, SweepProgress } from "../src/sweep/sweep-progress.js";
import { summarize, summaryTable } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-results-"));
after(() => rmSync(root, { recursive: true, force: true }));

function record(over: Partial<RunRecord> & { seed: number }): RunRecord {
  return {
    key: `s/m/${over.seed}`,
    scenario: "s",
    mix: "m",
    status: "completed",
    status_reason: "",
    success: true,
    sim_time_ms: 1000,
    commands: 10,
    refusals: 0,
    expired: 0,
    wall_time_ms: 5,
    log_hash: "sha256:x",
    objectives: [],
    ...over,
  };
}

test("Wilson intervals: textbook values, inside [0, 1] at 0 and n of n", () => {
  const round = ([lo, hi]: [number, number]): [number, number] => [
    Number(lo.toFixed(4)),
    Number(hi.toFixed(4)),
  ];
  assert.deepEqual(round(wilsonInterval(5, 10)), [0.2366, 0.7634]);
  assert.deepEqual(round(wilsonInterval(0, 10)), [0, 0.2775]);
  assert.deepEqual(round(wilsonInterval(10, 10)), [0.7225, 1]);
  assert.deepEqual(round(wilsonInterval(81, 263)), [0.2553, 0.3662]);
  assert.deepEqual(wilsonInterval(0, 0), [0, 1]);
});

test("the summary: one row per scenario x mix, means per run, sim time over successes only", () => {
  const summary = summarize([
    record({ seed: 1, sim_time_ms: 2000, commands: 4, refusals: 1, wall_time_ms: 10 }),
    record({ seed: 2, success: false, status: "failed", sim_time_ms: 9000, commands: 8, wall_time_ms: 20 }),
    record({ seed: 1, mix: "other", key: "s/other/1", success: false, status: "failed", commands: 3 }),
  ]);
  assert.equal(summary.runs, 3);
  assert.equal(summary.successes, 1);
  assert.deepEqual(summary.rows[0], {
    scenario: "s",
    mix: "m",
    runs: 2,
    successes: 1,
    success_rate: 0.5,
    success_ci95: wilsonInterval(1, 2),
    mean_sim_ms_to_success: 2000,
    mean_commands: 6,
    mean_refusals: 0.5,
    mean_wall_ms: 15,
  });
  assert.equal(summary.rows[1]!.mean_sim_ms_to_success, null);
  assert.deepEqual(summaryTable(summary).split("\n"), [
    "scenario  mix    runs  success      95% CI  sim s to success  commands  refusals  wall ms",
    "s         m         2    50.0%  9.5%-90.5%              2.00      6.00      0.50     15.0",
    "s         other     1     0.0%  0.0%-79.3%                 -      3.00      0.00      5.0",
  ]);
});

test("a sweep folder keeps its id, and a record line cut short by a kill is dropped and cleaned off", () => {
  const path = join(root, "cut");
  const dir = new SweepDir(path);
  assert.match(dir.sweepId, /^[0-9a-f]{16}$/);
  dir.appendRecord(record({ seed: 1 }));
  dir.appendRecord(record({ seed: 2 }));
  const file = join(path, "runs.jsonl");
  const whole = readFileSync(file, "utf8");
  writeFileSync(file, `${whole}{"key":"s/m/3","sce`);
  const again = new SweepDir(path);
  assert.equal(again.sweepId, dir.sweepId);
  assert.deepEqual([...again.readRecords().keys()], ["s/m/1", "s/m/2"]);
  assert.equal(readFileSync(file, "utf8"), whole);
  again.appendRecord(record({ seed: 1 }));
  assert.equal(again.readRecords().size, 2, "a key written twice counts once");

  writeFileSync(file, `${whole}not json\n`);
  assert.throws(() => again.readRecords(), /runs\.jsonl line 3 is not JSON/);
  writeFileSync(file, `{"key":"s/m/1"}\n`);
  assert.throws(() => again.readRecords(), /line 1: scenario must be a string/);
});

test("progress: plain lines off a terminal, a bar redrawn on one", () => {
  const plain: string[] = [];
  const progress = new SweepProgress({ write: (t) => plain.push(t), isTTY: false }, 4, 1);
  progress.recordFinished(true);
  progress.recordFinished(false);
  progress.recordError();
  progress.finish();
  assert.equal(plain.length, 2, "the first line, then the last; none twice");
  assert.match(plain[0]!, /^2\/4 done, 0 failed, [\d.]+ runs\/s, \d+ s left\n$/);
  assert.match(plain[1]!, /^3\/4 done, 1 failed, 1 errors, [\d.]+ runs\/s, finished\n$/);
  const drawn: string[] = [];
  const bar = new SweepProgress({ write: (t) => drawn.push(t), isTTY: true }, 2, 0);
  bar.recordFinished(true);
  bar.finish();
  assert.match(drawn[0]!, /^\r\x1b\[2K\[#{12}\.{12}\] 1\/2 done/);
  assert.ok(drawn.at(-1)!.endsWith("\n"));
  assert.equal(formatDuration(59.4), "59 s");
  assert.equal(formatDuration(125), "2 min 5 s");
  assert.equal(formatDuration(7300), "2 h 1 min");
});
