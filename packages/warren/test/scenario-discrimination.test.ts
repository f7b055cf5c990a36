import assert from "node:assert/strict";
import { test } from "node:test";
import { solvesAllowed } from "../src/check/check-report.js";
import { listScenarios } from "../src/scenarios/index.js";
import { completedSeeds, SEEDS_1_TO_20 } from "./helpers/discrimination.js";
import { SENSIBLE_PLAYERS } from "./helpers/sensible-players.js";

/**
 * Every scenario tells good play from bad, role by role: with the other agents on their solution
 * runners, a sensible player (written from the briefing) almost always succeeds. That the built-in
 * noop and random baselines almost always fail is `warren scenario check`'s to show
 * (scenario-check-cli.test.ts runs it on every scenario); here random is played with every
 * affordance offered too, which the check does not do.
 */
const MIN_SENSIBLE_WINS = 18;
const MAX_BASELINE_WINS = solvesAllowed({ runner: "random", agent: null }, SEEDS_1_TO_20.length).most;

for (const scenario of listScenarios()) {
  for (const { agent_id: agent } of scenario.agents) {
    test(`${scenario.name} ${agent}: a sensible player completes at least ${MIN_SENSIBLE_WINS} of seeds 1–20`, async () => {
      const player = SENSIBLE_PLAYERS[scenario.name]?.[agent];
      assert.ok(player, `a sensible ${agent} for ${scenario.name} is written in the tests`);
      const { completed, reasons } = await completedSeeds(scenario.name, agent, player, SEEDS_1_TO_20);
      assert.ok(completed.length >= MIN_SENSIBLE_WINS, reasons.join("; "));
    });
  }
}

test("with every affordance offered, the random baseline still fails, and the sensible players still win", async () => {
  for (const scenario of listScenarios()) {
    for (const { agent_id: agent } of scenario.agents) {
      const { completed } = await completedSeeds(scenario.name, agent, "random", SEEDS_1_TO_20, "all");
      assert.ok(completed.length <= MAX_BASELINE_WINS, `${scenario.name} ${agent}: ${completed.join(", ")}`);
      const sensible = SENSIBLE_PLAYERS[scenario.name]![agent]!;
      const won = await completedSeeds(scenario.name, agent, sensible, [1, 2, 3, 4, 5], "all");
      assert.ok(won.completed.length >= 4, `${scenario.name} ${agent}: ${won.reasons.join("; ")}`);
    }
  }
});
