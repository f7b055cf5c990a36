import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { AgentScore, Controller } from "../src/engine/index.js";
import { type RunRecord, recordProblem } from "../src/sweep/run-record.js";
import { SweepDir } from "../src/sweep/sweep-dir.js";
import { formatDuration, SweepProgress } from "../src/sweep/sweep-progress.js";
import { digestOf, summarize, summaryTable } from "../src/sweep/sweep-summary.js";
import { wilsonInterval } from "../src/sweep/wilson.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-results-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** An agent's score with only what the summary reads. */
function agent(agent_id: string, controller: Controller, contribution: number): AgentScore {
  return {
    agent_id,
    controller,
    commands: 0,
    actions: 0,
    refusals: 0,
    messages: 0,
    credits: 0,
    contribution,
  };
}

function record(
  over: Partial<Omit<RunRecord, "scores">> & {
    seed: number;
    time_ratio?: number | null;
    agents?: AgentScore[];
  },
): RunRecord {
  const { time_ratio = 1, agents = [agent("a", "solution", 1)], ...fields } = over;
  const success = fields.success ?? true;
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
    scores: {
      completed: success,
      score: success ? 1 : 0,
      objectives_met: success ? 1 : 0,
      objectives_total: 1,
      sim_time_ms: fields.sim_time_ms ?? 1000,
      solution_sim_time_ms: 1000,
      time_ratio: success ? time_ratio : null,
      agents,
    },
    ...fields,
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

test("the summary: one row per scenario x mix, means per run, sim time and time ratio over successes only", () => {
  const tested = (share: number): AgentScore[] => [
    agent("a", "random", share / 2),
    agent("b", "remote", share / 2),
    agent("c", "solution", 1 - share),
  ];
  const records = [
    record({
      seed: 1,
      sim_time_ms: 2000,
      commands: 4,
      refusals: 1,
      wall_time_ms: 10,
      time_ratio: 1.5,
      agents: tested(0.25),
    }),
    record({
      seed: 2,
      success: false,
      status: "failed",
      sim_time_ms: 9000,
      commands: 8,
      wall_time_ms: 20,
      agents: tested(0),
    }),
    record({
      seed: 3,
      sim_time_ms: 3000,
      commands: 6,
      refusals: 2,
      wall_time_ms: 15,
      time_ratio: 0.5,
      agents: tested(0.5),
    }),
    record({ seed: 1, mix: "other", key: "s/other/1", success: false, status: "failed", commands: 3 }),
  ];
  const summary = summarize(records.map(digestOf));
  assert.equal(summary.runs, 4);
  assert.equal(summary.successes, 2);
  assert.deepEqual(summary.rows[0], {
    scenario: "s",
    mix: "m",
    runs: 3,
    successes: 2,
    success_rate: 2 / 3,
    success_ci95: wilsonInterval(2, 3),
    mean_sim_ms_to_success: 2500,
    mean_time_ratio: 1,
    mean_tested_contribution: 0.25,
    mean_commands: 6,
    mean_refusals: 1,
    mean_wall_ms: 15,
  });
  assert.equal(summary.rows[1]!.mean_sim_ms_to_success, null);
  assert.equal(summary.rows[1]!.mean_time_ratio, null, "no success, no ratio");
  assert.equal(
    summary.rows[1]!.mean_tested_contribution,
    null,
    "every agent on its runner: nobody under test",
  );
  assert.deepEqual(summaryTable(summary).split("\n"), [
    "scenario  mix    runs  success       95% CI  sim s to success  time ratio  tested contrib  commands  refusals  wall ms",
    "s         m         3    66.7%  20.8%-93.9%              2.50       1.000           0.250      6.00      1.00     15.0",
    "s         other     1     0.0%   0.0%-79.3%                 -           -               -      3.00      0.00      5.0",
  ]);
});

test("a record must carry scores to be resumed from", () => {
  const { scores: _scores, ...old } = record({ seed: 1 });
  assert.match(recordProblem(old), /scores must be an object with agents/);
  assert.equal(recordProblem(record({ seed: 1 })), "");
});

test("a sweep folder keeps its id, and a record line cut short by a kill is dropped and cleaned off", () => {
  const path = join(root, "cut");
  const dir = new SweepDir(path);
  assert.match(dir.sweepId, /^[0-9a-f]{16}$/);
  dir.appendRecords([record({ seed: 1 }), record({ seed: 2 })]);
  const file = join(path, "runs.jsonl");
  const whole = readFileSync(file, "utf8");
  writeFileSync(file, `${whole}{"key":"s/m/3","sce`);
  const again = new SweepDir(path);
  assert.equal(again.sweepId, dir.sweepId);
  assert.deepEqual([...again.readRecords().keys()], ["s/m/1", "s/m/2"]);
  assert.equal(readFileSync(file, "utf8"), whole);
  again.appendRecords([record({ seed: 1 })]);
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
  const busy: string[] = [];
  const fast = new SweepProgress({ write: (t) => busy.push(t), isTTY: true }, 1000, 0);
  for (let i = 0; i < 1000; i++) fast.recordFinished(true);
  assert.ok(busy.length < 100, `a bar redrawn ${busy.length} times for 1000 runs in a moment`);
  fast.finish();
  assert.match(busy.at(-1)!, /1000\/1000 done.*finished\n$/);
  assert.equal(formatDuration(59.4), "59 s");
  assert.equal(formatDuration(125), "2 min 5 s");
  assert.equal(formatDuration(7300), "2 h 1 min");
});
