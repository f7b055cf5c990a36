import assert from "node:assert/strict";
import { test } from "node:test";
import { playHeadless } from "../src/engine/index.js";
import type { NpcPolicy } from "../src/engine/types.js";
import { findScenario, listScenarios } from "../src/scenarios/index.js";

/**
 * Scores rank the players on every scenario: a whole team of noop players scores below a random
 * team, which scores below a greedy team, which scores below the solution team. Seed by seed the
 * order never turns round (ties are allowed where a seed gives no chance to tell them apart); over
 * the seeds each is strictly below the next, so partial progress earns partial credit.
 */
const POLICIES: readonly NpcPolicy[] = ["noop", "random", "greedy", "solution"];
const SEEDS = [1, 2, 3, 4, 5, 6];

async function teamScore(scenario: string, seed: number, policy: NpcPolicy): Promise<number> {
  return (await playHeadless(findScenario(scenario)!, seed, policy)).scores.score;
}

for (const { name } of listScenarios()) {
  test(`${name}: scores rank noop < random < greedy < solution over seeds ${SEEDS[0]}–${SEEDS.at(-1)}`, async () => {
    const scores = new Map<NpcPolicy, number[]>();
    for (const policy of POLICIES) {
      scores.set(policy, await Promise.all(SEEDS.map((seed) => teamScore(name, seed, policy))));
    }
    const table = POLICIES.map((p) => `${p} ${scores.get(p)!.join(",")}`).join("; ");
    for (const [i, seed] of SEEDS.entries()) {
      for (let k = 1; k < POLICIES.length; k++) {
        const lower = scores.get(POLICIES[k - 1]!)![i]!;
        const higher = scores.get(POLICIES[k]!)![i]!;
        assert.ok(lower <= higher, `seed ${seed}: ${POLICIES[k - 1]} above ${POLICIES[k]} (${table})`);
      }
    }
    const mean = (p: NpcPolicy) => scores.get(p)!.reduce((a, b) => a + b, 0) / SEEDS.length;
    for (let k = 1; k < POLICIES.length; k++) {
      assert.ok(
        mean(POLICIES[k - 1]!) < mean(POLICIES[k]!),
        `${POLICIES[k - 1]} does not score below ${POLICIES[k]} over the seeds (${table})`,
      );
    }
    assert.deepEqual(
      scores.get("solution"),
      SEEDS.map(() => 1),
      "the solution team completes every seed",
    );
  });
}
