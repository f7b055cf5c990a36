import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { RunResult, schemaProblems } from "../src/protocol/index.js";
import { warrenBin } from "./helpers/warren-process.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

function warren(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [warrenBin, ...args], { cwd: packageDir }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

test("warren --help lists the commands; an unknown command is a usage error", async () => {
  const [help, unknown] = await Promise.all([warren("--help"), warren("fly")]);
  assert.equal(help.code, 0);
  for (const usage of [
    "warren scenarios [--json]",
    "warren run SCENARIO [--seed N] [--json] [--log FILE]",
    "warren replay FILE",
  ]) {
    assert.ok(help.stdout.includes(usage), usage);
  }
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "fly"/);
});

test("warren scenarios lists every scenario, as text and as JSON", async () => {
  const [text, json] = await Promise.all([warren("scenarios"), warren("scenarios", "--json")]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^bridge_repair {2}Repair the storm-damaged bridge and resupply the clinic\./m);
  const list = JSON.parse(json.stdout) as { name: string; agents: { agent_id: string }[] }[];
  assert.deepEqual(
    list.map((s) => s.name),
    ["bridge_repair", "signal_relay", "harvest_rush", "parcel_dispatch", "fog_search", "dam_release"],
  );
  assert.ok(list[0]!.agents.some((a) => a.agent_id === "engineer-1"));
});

test("warren run prints objectives, times and the hash; the same seed gives the same hash", async () => {
  const [text, jsonRun, otherRun] = await Promise.all([
    warren("run", "bridge_repair", "--seed", "4"),
    warren("run", "bridge_repair", "--seed", "4", "--json"),
    warren("run", "bridge_repair", "--seed", "5", "--json"),
  ]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^bridge_repair seed 4: completed \(every objective is met\)$/m);
  assert.match(text.stdout, /^ {2}repair 2\/2 completed$/m);
  assert.match(text.stdout, /^sim time \d+(\.\d+)? s, wall time \d+ ms$/m);
  assert.match(text.stderr, /\[t=\d+(\.\d+)?s\] repair 1\/2 pending/, "progress on stderr");
  const hash = /^log hash (sha256:[0-9a-f]{64})$/m.exec(text.stdout)![1];
  const json = JSON.parse(jsonRun.stdout);
  assert.equal(schemaProblems(RunResult, json), undefined, "--json prints the declared RunResult");
  assert.equal(json.log_hash, hash);
  assert.equal(json.status, "completed");
  assert.equal(typeof json.wall_time_ms, "number");
  const other = JSON.parse(otherRun.stdout);
  assert.notEqual(other.log_hash, hash);
  assert.equal(json.scores.time_ratio, 1, "the solution team is its own yardstick");
  assert.match(text.stdout, /^time ratio 1 \(the solution team's time: \d+ s\)$/m);
  assert.match(text.stdout, /^ {2}courier-1 \(solution\): contribution 0\.545, 6 credits, \d+ commands/m);
});

test("warren run --policy puts built-in baselines on agents; the scores show who did what", async () => {
  const [greedy, bad, mode] = await Promise.all([
    warren(
      "run",
      "signal_relay",
      "--seed",
      "2",
      "--json",
      "--policy",
      "keeper-1=noop",
      "--affordances",
      "all",
    ),
    warren("run", "signal_relay", "--policy", "keeper-1=clever"),
    warren("run", "signal_relay", "--affordances", "some"),
  ]);
  assert.equal(greedy.code, 1, "a keeper that does nothing loses the run");
  const json = JSON.parse(greedy.stdout);
  assert.equal(json.status, "failed");
  const byAgent = Object.fromEntries(json.scores.agents.map((a: { agent_id: string }) => [a.agent_id, a]));
  assert.equal(byAgent["keeper-1"].controller, "noop");
  assert.equal(byAgent["keeper-1"].actions, 0);
  assert.equal(byAgent["runner-1"].contribution, 1, "only the runner did anything that counted");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--policy takes AGENT=POLICY/);
  assert.equal(mode.code, 2);
  assert.match(mode.stderr, /--affordances must be "ready" or "all"/);
});

test("warren run refuses bad input with a clear error", async () => {
  const [unknown, seed] = await Promise.all([
    warren("run", "nowhere"),
    warren("run", "bridge_repair", "--seed", "x1"),
  ]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown_scenario: there is no scenario "nowhere"/);
  assert.equal(seed.code, 2);
  assert.match(seed.stderr, /--seed must be an integer/);
  assert.match(seed.stderr, /Usage: warren run/);
});
