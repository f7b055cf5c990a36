import assert from "node:assert/strict";
import { test } from "node:test";
import type { CheckReport } from "../src/check/check-report.js";
import { listScenarios } from "../src/scenarios/index.js";
import { runWarren } from "./helpers/warren-process.js";

/**
 * `warren scenario check` as a person runs it: every bundled scenario passes it on its default 20
 * seeds (so noop, random and greedy, as any one agent beside solution teammates, solve at most 2 of
 * seeds 1–20: how the scenarios discriminate); the README's example passes; a scenario made bad in each
 * of the three ways fails that check alone, by name, with exit code 1.
 */

const FIXTURES = "test/fixtures/scenarios";

test("every bundled scenario passes the check on seeds 1–20", async () => {
  const names = listScenarios().map((s) => s.name);
  const checks = await Promise.all(names.map((name) => runWarren(["scenario", "check", name])));
  for (const [i, { code, stdout, stderr }] of checks.entries()) {
    const name = names[i]!;
    assert.equal(code, 0, `${name}:\n${stdout}\n${stderr}`);
    assert.match(stdout, new RegExp(`^${name}: seeds 1–20, each played 2 times by each player$`, "m"));
    assert.match(stdout, /^solution +team +20\/20 +all +20\/20$/m);
    for (const check of ["deterministic", "solution_solves", "baselines_rarely_solve"]) {
      assert.match(stdout, new RegExp(`^pass {2}${check}: `, "m"), `${name} ${check}`);
    }
    assert.equal(stdout.trimEnd().split("\n").at(-1), `${name} passes the check`);
    assert.match(stderr, /^checking .* on seeds 1–20/m, "progress on stderr");
    assert.match(stderr, /^\[1\/\d+\] the solution team: 20\/20 solved, \d+\.\d s$/m);
  }
});

test("the README's example scenario passes, from its TypeScript file; --json gives the report", async () => {
  const { code, stdout, stderr } = await runWarren([
    "scenario",
    "check",
    "examples/beacon-scenario.ts",
    "--seeds",
    "10",
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(stdout) as CheckReport;
  assert.equal(report.scenario, "beacon");
  assert.equal(report.seeds, 10);
  assert.equal(report.plays_per_seed, 2);
  assert.equal(report.passed, true);
  assert.deepEqual(
    report.players.map((p) => `${p.runner} ${p.agent ?? "team"}`),
    [
      "solution team",
      "noop watcher-1",
      "noop carrier-1",
      "random watcher-1",
      "random carrier-1",
      "greedy watcher-1",
      "greedy carrier-1",
    ],
  );
  assert.deepEqual(report.players[0]!.solved_seeds, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.ok(report.players.every((p) => p.seeds === 10 && p.differing_seeds.length === 0));
  assert.deepEqual(
    report.checks.map((c) => c.check),
    ["deterministic", "solution_solves", "baselines_rarely_solve"],
  );
});

test("a bad scenario fails the one check it breaks, by name, with exit code 1", async () => {
  const cases = [
    {
      file: "unseeded-lantern.ts",
      check: "deterministic",
      detail:
        /plays of the same seed gave different log hashes: the solution team on seeds [\d, ]+.*\(the solution team seed \d+: sha256:[0-9a-f]{64} then sha256:[0-9a-f]{64}\)/,
    },
    {
      file: "hasty-deadline.ts",
      check: "solution_solves",
      detail:
        /the solution team did not solve 20 of 20 seeds: 1, 2, 3, 4, 5 and 15 more \(seed 1: failed: objective light missed its deadline at t=6s\)/,
    },
    {
      file: "needless-watcher.ts",
      check: "baselines_rarely_solve",
      detail:
        /noop watcher-1 solved 20 of 20 seeds, random watcher-1 solved 20 of 20 seeds, greedy watcher-1 solved 20 of 20 seeds, greedy carrier-1 solved 20 of 20 seeds \(allowed: 2, 10 %\)/,
    },
  ];
  const runs = await Promise.all(cases.map((c) => runWarren(["scenario", "check", `${FIXTURES}/${c.file}`])));
  for (const [i, { code, stdout, stderr }] of runs.entries()) {
    const { file, check, detail } = cases[i]!;
    assert.equal(code, 1, `${file}:\n${stdout}\n${stderr}`);
    assert.match(stdout, new RegExp(`^FAIL {2}${check}: ${detail.source}$`, "m"), `${file}:\n${stdout}`);
    const failed = stdout.split("\n").filter((line) => line.startsWith("FAIL"));
    assert.equal(failed.length, 1, `${file} fails only ${check}:\n${stdout}`);
    assert.match(stdout.trimEnd().split("\n").at(-1)!, new RegExp(`^beacon_\\w+ fails the check: ${check}$`));
  }
});

test("an unknown scenario, a file that is none and bad --seeds are refused with their codes", async () => {
  const [unknown, missing, notOne] = await Promise.all([
    runWarren(["scenario", "check", "nowhere"]),
    runWarren(["scenario", "check", "./nowhere.ts"]),
    runWarren(["scenario", "check", `${FIXTURES}/not-a-scenario.ts`]),
  ]);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /^warren scenario: unknown_scenario: there is no scenario "nowhere"; scenarios: bridge_repair, .*; or name a scenario module's file/m,
  );
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /scenario_not_loaded: there is no file \.\/nowhere\.ts/);
  assert.equal(notOne.code, 1);
  assert.match(notOne.stderr, /not_a_scenario: .*not-a-scenario\.ts: its scenario needs title, a string/);
  const seeds = await Promise.all(
    ["--seeds=0", "--seeds=-1", "--seeds=1.5", "--seeds=x", "--seeds=1001"].map((flag) =>
      runWarren(["scenario", "check", "bridge_repair", flag]),
    ),
  );
  for (const { code, stderr } of seeds) {
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--seeds must be an integer from 1 to 1000 \(got "[^"]+"\)/);
    assert.match(stderr, /Usage: warren scenario check SCENARIO\|FILE \[--seeds N\] \[--json\]/);
  }
});

test("warren scenario names its subcommand; its help is the check's", async () => {
  const [none, other, two, help, checkHelp, list] = await Promise.all([
    runWarren(["scenario"]),
    runWarren(["scenario", "list"]),
    runWarren(["scenario", "check", "bridge_repair", "signal_relay"]),
    runWarren(["scenario", "--help"]),
    runWarren(["scenario", "check", "--help"]),
    runWarren(["--help"]),
  ]);
  for (const refused of [none, other]) {
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /say "check" and the scenario to check/);
  }
  assert.equal(two.code, 2);
  assert.match(two.stderr, /name exactly one scenario/);
  for (const shown of [help, checkHelp]) {
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /^Usage: warren scenario check SCENARIO\|FILE \[--seeds N\] \[--json\]$/m);
    assert.match(shown.stdout, /default 20, at most 1000/);
  }
  assert.match(list.stdout, /warren scenario check SCENARIO\|FILE/);
  assert.match(list.stdout, /warren scenarios \[--json\]/, "warren scenarios stays as it is");
});
