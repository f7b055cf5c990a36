import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { usageOf } from "../src/engine/command-usage.js";
import { decisionFields, type Envelope, RunError, type Usage } from "../src/engine/index.js";
import {
  addUsage,
  countUsage,
  runUsage,
  scorePer1kTokens,
  scorePerCost,
} from "../src/engine/usage-totals.js";
import { findScenario } from "../src/scenarios/index.js";
import { headless, RemoteAgent, remoteRun } from "./helpers/engine-runs.js";

describe("usage totals", () => {
  it("adds usages, with a cost when either has one", () => {
    assert.equal(addUsage(undefined, undefined), undefined);
    assert.deepEqual(addUsage({ input_tokens: 1, output_tokens: 2 }, undefined), {
      input_tokens: 1,
      output_tokens: 2,
    });
    assert.deepEqual(
      addUsage({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 10, output_tokens: 20 }),
      {
        input_tokens: 11,
        output_tokens: 22,
      },
    );
    assert.deepEqual(
      addUsage({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 10, output_tokens: 20, cost: 0.5 }),
      { input_tokens: 11, output_tokens: 22, cost: 0.5 },
    );
  });

  it("counts an agent's commands and sums its tokens and costs, the cost null until one is reported", () => {
    let total = countUsage(undefined, { input_tokens: 1000, output_tokens: 50 });
    assert.deepEqual(total, { commands: 1, input_tokens: 1000, output_tokens: 50, cost: null });
    total = countUsage(total, { input_tokens: 500, output_tokens: 25, cost: 0.1 });
    total = countUsage(total, { input_tokens: 0, output_tokens: 0, cost: 0.2 });
    // 0.1 + 0.2 is 0.30000000000000004 in floating point: costs are given to nine decimals.
    assert.deepEqual(total, { commands: 3, input_tokens: 1500, output_tokens: 75, cost: 0.3 });
  });

  it("sums the team's usage and gives the score per 1,000 tokens and per unit of cost", () => {
    const a = { commands: 4, input_tokens: 3000, output_tokens: 1000, cost: 0.25 };
    const b = { commands: 2, input_tokens: 900, output_tokens: 100, cost: null };
    // 5,000 tokens: a score of 0.8 is 0.16 per 1,000; a cost of 0.25 makes 3.2 per unit.
    assert.deepEqual(runUsage(0.8, [a, undefined, b]), {
      input_tokens: 3900,
      output_tokens: 1100,
      cost: 0.25,
      score_per_1k_tokens: 0.16,
      score_per_cost: 3.2,
    });
    assert.equal(runUsage(1, [undefined, undefined]), undefined, "no usage reported: none given");
    assert.deepEqual(runUsage(1, [b]), {
      input_tokens: 900,
      output_tokens: 100,
      cost: null,
      score_per_1k_tokens: 1,
      score_per_cost: null,
    });
    assert.equal(scorePer1kTokens(1, 0), null);
    assert.equal(scorePer1kTokens(0, 2000), 0);
    assert.equal(scorePerCost(1, 0), null, "a cost of 0 gives no ratio");
    assert.equal(scorePerCost(0.5, 2), 0.25);
  });

  it("reads a command's usage strictly: the limits at their edge, every malformed one refused with its code", () => {
    const max = { input_tokens: 1_000_000_000, output_tokens: 1_000_000_000, cost: 1_000_000_000 };
    assert.deepEqual(usageOf({ usage: max }), max);
    assert.deepEqual(usageOf({ usage: { input_tokens: 0, output_tokens: 0 } }), {
      input_tokens: 0,
      output_tokens: 0,
    });
    assert.equal(usageOf({ noop: true }), undefined);
    const refused = (usage: unknown, code: string, detail: RegExp) =>
      assert.throws(
        () => usageOf({ usage }),
        (error: unknown) => error instanceof RunError && error.code === code && detail.test(error.message),
      );
    refused(
      { ...max, input_tokens: 1_000_000_001 },
      "limit_exceeded",
      /usage.input_tokens is 1000000001; at most 1000000000/,
    );
    refused({ ...max, output_tokens: 1_000_000_001 }, "limit_exceeded", /usage.output_tokens/);
    refused({ ...max, cost: 1_000_000_000.5 }, "limit_exceeded", /usage.cost is 1000000000.5/);
    refused(null, "unprocessable_command", /usage must be an object .* \(got null\)/);
    refused([1, 2], "unprocessable_command", /got an array/);
    refused(
      { input_tokens: 1 },
      "unprocessable_command",
      /usage.output_tokens must be an integer of at least 0 \(got nothing\)/,
    );
    refused(
      { input_tokens: -1, output_tokens: 0 },
      "unprocessable_command",
      /input_tokens must be an integer of at least 0 \(got number -1\)/,
    );
    refused({ input_tokens: 1.5, output_tokens: 0 }, "unprocessable_command", /got number 1.5/);
    refused({ input_tokens: "10", output_tokens: 0 }, "unprocessable_command", /got the string "10"/);
    refused(
      { input_tokens: 1, output_tokens: 0, cost: -0.01 },
      "unprocessable_command",
      /usage.cost must be a number of at least 0/,
    );
    refused({ input_tokens: 1, output_tokens: 0, cost: "0.1" }, "unprocessable_command", /usage.cost/);
    refused(
      { input_tokens: 1, output_tokens: 0, tokens: 1 },
      "unprocessable_command",
      /unknown field "tokens"/,
    );
  });
});

/** runner-1's solution runner, answered through submit: with `usage` on every command, or none. */
function playSignalRelay(usage: Usage | undefined) {
  const { run } = remoteRun("signal_relay", { seed: 2, controlled: ["runner-1"], npcPolicy: "solution" });
  const runner = findScenario("signal_relay")!.solution("runner-1");
  let n = 0;
  const answer = (envelope: Envelope): void => {
    const receipt = run.submit("runner-1", {
      command_id: `u-${++n}`,
      observation_id: envelope.observation_id,
      ...decisionFields(runner.decide(envelope.observation)),
      ...(usage ? { usage } : {}),
    });
    assert.equal(receipt.status, "accepted", receipt.detail);
  };
  run.onObservation((envelope) => queueMicrotask(() => answer(envelope)));
  answer(run.outstanding("runner-1")!);
  return run;
}

describe("usage in a run", () => {
  it("is summed per agent beside its scores, and changes no hash: the run is the same run", async () => {
    const usage = { input_tokens: 1200, output_tokens: 300, cost: 0.125 };
    const withUsage = playSignalRelay(usage);
    const summary = await withUsage.whenEnded();
    const without = await playSignalRelay(undefined).whenEnded();
    assert.equal(summary.status, "completed");
    assert.equal(summary.log_hash, without.log_hash);
    assert.equal(summary.log_hash, (await headless("signal_relay", 2)).log_hash);
    const runner = summary.scores.agents.find((a) => a.agent_id === "runner-1")!;
    const commands = runner.commands;
    assert.ok(commands > 1);
    assert.deepEqual(runner.usage, {
      commands,
      input_tokens: 1200 * commands,
      output_tokens: 300 * commands,
      cost: 0.125 * commands,
    });
    assert.deepEqual(summary.scores.usage, {
      input_tokens: 1200 * commands,
      output_tokens: 300 * commands,
      cost: 0.125 * commands,
      score_per_1k_tokens: 1000 / (1500 * commands),
      score_per_cost: 1 / (0.125 * commands),
    });
    for (const agent of summary.scores.agents.filter((a) => a.agent_id !== "runner-1")) {
      assert.equal(agent.usage, undefined, `${agent.agent_id} reported nothing`);
    }
    assert.equal(without.scores.usage, undefined, "a run without usage scores as before");
    assert.ok(without.scores.agents.every((a) => !("usage" in a)));
    // Each remote decision carries its command's usage beside its receipt; the final frame the totals.
    const decisions = withUsage.events().filter((e) => e.kind === "decision" && e.receipt);
    assert.equal(decisions.length, commands);
    for (const decision of decisions) assert.deepEqual(decision.usage, usage);
    assert.deepEqual(withUsage.events().at(-1)!.data.scores, summary.scores);
  });

  it("counts only accepted commands: a refused, stale or duplicate one adds nothing", async () => {
    const { run } = remoteRun("signal_relay", { seed: 2, controlled: ["runner-1"], npcPolicy: "solution" });
    const tom = new RemoteAgent(run, "runner-1");
    const spent = { input_tokens: 100, output_tokens: 10 };
    const rejected = tom.send({ action: "fly", usage: spent });
    assert.equal(rejected.status, "rejected");
    const accepted = tom.send({ sleep_ms: 1000, usage: spent });
    assert.equal(accepted.status, "accepted");
    const duplicate = run.submit("runner-1", {
      command_id: accepted.command_id,
      observation_id: accepted.observation_id,
      sleep_ms: 1000,
      usage: spent,
    });
    assert.equal(duplicate.status, "duplicate");
    const stale = run.submit("runner-1", {
      command_id: "late",
      observation_id: accepted.observation_id,
      noop: true,
      usage: spent,
    });
    assert.equal(stale.status, "stale");
    assert.deepEqual(run.summary().scores.agents.find((a) => a.agent_id === "runner-1")!.usage, {
      commands: 1,
      input_tokens: 100,
      output_tokens: 10,
      cost: null,
    });
    run.dispose();
  });
});
