import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type CheckPlayer,
  type CheckReport,
  judgeChecks,
  type PlayerResult,
  solvesAllowed,
} from "../src/check/check-report.js";
import { checkText } from "../src/check/check-text.js";
import { checkPlayers, checkScenario } from "../src/check/scenario-check.js";
import { UsageError } from "../src/cli/command.js";
import { parseCount } from "../src/cli/parse-count.js";
import { looksLikeScenario, scenarioProblem } from "../src/engine/scenario-shape.js";
import { findScenario } from "../src/scenarios/index.js";

/** What `warren scenario check` plays and concludes, from made-up results: no run is played here but the last. */

const SEEDS = 20;
const ALL_SEEDS = Array.from({ length: SEEDS }, (_, i) => i + 1);

function result(player: CheckPlayer, solved: number[], differing: number[] = []): PlayerResult {
  const unsolved = ALL_SEEDS.find((s) => !solved.includes(s));
  return {
    ...player,
    seeds: SEEDS,
    solved_seeds: solved,
    first_unsolved: unsolved === undefined ? null : { seed: unsolved, reason: "failed: the deadline passed" },
    differing_seeds: differing,
    first_difference:
      differing.length === 0 ? null : { seed: differing[0]!, hashes: ["sha256:aa", "sha256:bb"] },
  };
}

/** A scenario of two agents that passes: the solution solves every seed, the baselines none. */
function passing(): PlayerResult[] {
  return checkPlayers(["a-1", "b-1"]).map((p) => result(p, p.runner === "solution" ? ALL_SEEDS : []));
}

function verdict(players: PlayerResult[], check: string) {
  return judgeChecks(players, SEEDS).find((v) => v.check === check)!;
}

test("a check plays the solution team, then noop, random and greedy as each agent in turn", () => {
  assert.deepEqual(
    checkPlayers(["a-1", "b-1"]).map((p) => `${p.runner} ${p.agent ?? "team"}`),
    ["solution team", "noop a-1", "noop b-1", "random a-1", "random b-1", "greedy a-1", "greedy b-1"],
  );
});

test("the solution team must solve every seed; noop, random and greedy one in ten at most", () => {
  const team = { runner: "solution", agent: null } as const;
  assert.deepEqual(solvesAllowed(team, 20), { least: 20, most: 20 });
  for (const runner of ["noop", "random", "greedy"] as const) {
    const one = { runner, agent: "a-1" };
    assert.deepEqual(
      [9, 10, 20, 29, 1000].map((seeds) => solvesAllowed(one, seeds).most),
      [0, 1, 2, 2, 100],
    );
  }
});

test("a scenario whose plays agree, whose solution wins and whose baselines lose passes all three checks", () => {
  const verdicts = judgeChecks(passing(), SEEDS);
  assert.deepEqual(
    verdicts.map((v) => [v.check, v.passed]),
    [
      ["deterministic", true],
      ["solution_solves", true],
      ["baselines_rarely_solve", true],
    ],
  );
  assert.match(
    verdicts[2]!.detail,
    /the most noop, random or greedy solved as any one agent is 0 of 20 seeds \(allowed: 2, 10 %\)/,
  );
});

test("two plays of a seed with different hashes fail determinism, naming the player, the seeds and the hashes", () => {
  const players = passing();
  players[3] = result(players[3]!, [], [4, 9]);
  const v = verdict(players, "deterministic");
  assert.equal(v.passed, false);
  assert.equal(
    v.detail,
    "plays of the same seed gave different log hashes: random a-1 on seeds 4, 9 (random a-1 seed 4: sha256:aa then sha256:bb)",
  );
});

test("a seed the solution team misses fails solution_solves, with the seeds and why the first failed", () => {
  const players = passing();
  players[0] = result(players[0]!, ALL_SEEDS.slice(1));
  const v = verdict(players, "solution_solves");
  assert.equal(v.passed, false);
  assert.equal(
    v.detail,
    "the solution team did not solve 1 of 20 seeds: 1 (seed 1: failed: the deadline passed)",
  );
  players[0] = result(players[0]!, []);
  assert.match(verdict(players, "solution_solves").detail, /20 of 20 seeds: 1, 2, 3, 4, 5 and 15 more/);
});

test("a baseline solving 3 of 20 seeds fails, greedy as much as noop or random; 2 of 20 (10 %) passes", () => {
  const players = passing();
  players[2] = result(players[2]!, [1, 2]); // noop b-1
  players[5] = result(players[5]!, [4, 9]); // greedy a-1
  assert.equal(verdict(players, "baselines_rarely_solve").passed, true);
  players[4] = result(players[4]!, [1, 2, 3]); // random b-1
  players[6] = result(players[6]!, ALL_SEEDS); // greedy b-1
  const v = verdict(players, "baselines_rarely_solve");
  assert.equal(v.passed, false);
  assert.equal(
    v.detail,
    "random b-1 solved 3 of 20 seeds, greedy b-1 solved 20 of 20 seeds (allowed: 2, 10 %)",
  );
});

test("the text has a row per player, a line per check and the outcome last", () => {
  const players = passing();
  players[1] = result(players[1]!, ALL_SEEDS);
  const checks = judgeChecks(players, SEEDS);
  const report: CheckReport = {
    scenario: "pair",
    seeds: SEEDS,
    plays_per_seed: 2,
    players,
    checks,
    passed: false,
  };
  const lines = checkText(report).split("\n");
  assert.equal(lines[0], "pair: seeds 1–20, each played 2 times by each player");
  assert.match(lines[1]!, /^runner +agent +solved +may solve +same hash$/);
  assert.match(lines[2]!, /^solution +team +20\/20 +all +20\/20$/);
  assert.match(lines[3]!, /^noop +a-1 +20\/20 +at most 2 +20\/20$/);
  assert.match(lines[7]!, /^greedy +a-1 +0\/20 +at most 2 +20\/20$/);
  assert.match(lines.join("\n"), /^pass {2}deterministic: /m);
  assert.match(lines.join("\n"), /^FAIL {2}baselines_rarely_solve: noop a-1 solved 20 of 20 seeds/m);
  assert.equal(lines.at(-1), "pair fails the check: baselines_rarely_solve");
});

test("--seeds is a count from 1 to the check's limit", () => {
  assert.equal(parseCount("--seeds", undefined, 20, 1, 1000), 20);
  assert.equal(parseCount("--seeds", "1000", 20, 1, 1000), 1000);
  for (const bad of ["0", "-1", "1.5", "x", "1001", ""]) {
    assert.throws(
      () => parseCount("--seeds", bad, 20, 1, 1000),
      (error: Error) =>
        error instanceof UsageError &&
        error.message === `--seeds must be an integer from 1 to 1000 (got "${bad}")`,
    );
  }
});

test("a scenario from a module is checked for the fields a definition needs before it is played", () => {
  const bridge = findScenario("bridge_repair")!;
  assert.equal(scenarioProblem(bridge), "");
  assert.ok(looksLikeScenario(bridge));
  assert.ok(!looksLikeScenario({ name: "x" }));
  assert.equal(scenarioProblem(null), "is not an object");
  assert.equal(scenarioProblem({ ...bridge, title: undefined }), "needs title, a string (got undefined)");
  assert.equal(scenarioProblem({ ...bridge, agents: {} }), "needs agents, an array (got object)");
  assert.equal(scenarioProblem({ ...bridge, build: "map" }), "needs build, a function (got string)");
  assert.equal(scenarioProblem({ ...bridge, budgets: null }), "needs budgets, an object (got null)");
  assert.equal(scenarioProblem({ ...bridge, agents: [] }), "needs at least one agent");
});

test("a scenario whose runs cannot even be made fails as crashed plays, not as a crashed check", async () => {
  const broken = {
    ...findScenario("signal_relay")!,
    build() {
      throw new Error("the map is missing");
    },
  };
  const report = await checkScenario(broken, 2);
  assert.equal(report.passed, false);
  const solves = report.checks.find((c) => c.check === "solution_solves")!;
  assert.equal(
    solves.detail,
    "the solution team did not solve 2 of 2 seeds: 1, 2 (seed 1: crashed: the run could not be made: the map is missing)",
  );
  assert.ok(report.checks.find((c) => c.check === "deterministic")!.passed);
});
