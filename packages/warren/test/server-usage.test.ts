import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { MAX_USAGE_COST, MAX_USAGE_TOKENS, type RunEvent, type RunView } from "../src/protocol/index.js";
import { headless } from "./helpers/engine-runs.js";
import { playWithUsage } from "./helpers/metered-play.js";
import { call, runWithClaims, serverForSuite } from "./helpers/server.js";

const live = serverForSuite();

describe("usage on commands", () => {
  it("totals each agent's usage in the run's scores, counts a refused try with the next command, and changes no hash", async () => {
    const warren = new WarrenClient(live.url);
    const run = await warren.createRun("signal_relay", {
      seed: 2,
      controlled_agents: ["runner-1", "keeper-1"],
    });
    const runnerSpent = { input_tokens: 1000, output_tokens: 200, cost: 0.5 };
    const keeperSpent = { input_tokens: 300, output_tokens: 30 };
    const statuses = await Promise.all([
      // The runner's first try is refused (sleep_ms 0): what it spent rides on its next command.
      playWithUsage(warren, run.run_id, "runner-1", "signal_relay", runnerSpent, {
        firstTry: { sleep_ms: 0 },
      }),
      playWithUsage(warren, run.run_id, "keeper-1", "signal_relay", keeperSpent),
    ]);
    assert.deepEqual(statuses, ["completed", "completed"]);
    const view: RunView = await warren.run(run.run_id);
    assert.equal(
      view.log_hash,
      (await headless("signal_relay", 2)).log_hash,
      "usage is no move in the world",
    );
    const usageOf = (agent: string) => view.scores.agents.find((a) => a.agent_id === agent)!.usage;
    // By hand: the runner answers 3 observations (4 tries, one refused), the keeper 2.
    assert.deepEqual(usageOf("runner-1"), { commands: 3, input_tokens: 4000, output_tokens: 800, cost: 2 });
    assert.deepEqual(usageOf("keeper-1"), { commands: 2, input_tokens: 600, output_tokens: 60, cost: null });
    assert.deepEqual(view.scores.usage, {
      input_tokens: 4600,
      output_tokens: 860,
      cost: 2,
      score_per_1k_tokens: 1000 / 5460,
      score_per_cost: 0.5,
    });
    // Each remote decision carries what its command reported beside its receipt: the runner's
    // first, its refused try's too.
    const events: RunEvent[] = [];
    await warren.spectate(run.run_id, { onEvent: (event) => events.push(event) });
    const reported = (agent: string) =>
      events.flatMap((e) => (e.kind === "decision" && e.data.agent === agent && e.receipt ? [e.usage] : []));
    assert.deepEqual(reported("runner-1"), [
      { input_tokens: 2000, output_tokens: 400, cost: 1 },
      runnerSpent,
      runnerSpent,
    ]);
    assert.deepEqual(reported("keeper-1"), [keeperSpent, keeperSpent]);
  });

  it("refuses a malformed usage with 422 unprocessable_command and one past a limit with 422 limit_exceeded, and takes one at each limit", async () => {
    const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"]);
    const lease = leases["engineer-1"]!;
    const path = `/v1/runs/${runId}/agents/engineer-1`;
    const envelope = (await call(live.url, "GET", `${path}/observations`, { query: { lease, wait: 5 } }))
      .json;
    const submit = (usage: unknown) =>
      call(live.url, "POST", `${path}/commands`, {
        query: { lease },
        body: { command_id: "c-1", observation_id: envelope.observation_id, noop: true, usage },
      });
    const max = { input_tokens: MAX_USAGE_TOKENS, output_tokens: MAX_USAGE_TOKENS, cost: MAX_USAGE_COST };
    const refusals: [unknown, string, RegExp][] = [
      [
        { ...max, input_tokens: MAX_USAGE_TOKENS + 1 },
        "limit_exceeded",
        /usage.input_tokens is 1000000001; at most 1000000000/,
      ],
      [
        { ...max, output_tokens: MAX_USAGE_TOKENS + 1 },
        "limit_exceeded",
        /usage.output_tokens is 1000000001/,
      ],
      [
        { ...max, cost: MAX_USAGE_COST + 0.5 },
        "limit_exceeded",
        /usage.cost is 1000000000.5; at most 1000000000/,
      ],
      [
        { input_tokens: -1, output_tokens: 0 },
        "unprocessable_command",
        /usage.input_tokens must be an integer of at least 0 \(got number -1\)/,
      ],
      [
        { input_tokens: 0, output_tokens: 2.5 },
        "unprocessable_command",
        /usage.output_tokens must be an integer/,
      ],
      [
        { input_tokens: 0, output_tokens: 0, cost: -0.001 },
        "unprocessable_command",
        /usage.cost must be a number of at least 0/,
      ],
      [{ input_tokens: 0 }, "unprocessable_command", /usage.output_tokens .* \(got nothing\)/],
      [
        { input_tokens: 0, output_tokens: 0, cached_tokens: 5 },
        "unprocessable_command",
        /unknown field "cached_tokens"/,
      ],
      [null, "unprocessable_command", /usage must be an object/],
      ["1000 tokens", "unprocessable_command", /usage must be an object .*the string/],
    ];
    for (const [usage, code, detail] of refusals) {
      const reply = await submit(usage);
      assert.equal(reply.status, 422, `${JSON.stringify(usage)}: ${JSON.stringify(reply.json)}`);
      assert.equal(reply.json.error, code, JSON.stringify(usage));
      assert.match(reply.json.detail, detail);
    }
    const view = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
    assert.equal(view.scores.usage, undefined, "a refused command adds nothing");
    const atLimits = await submit(max);
    assert.equal(atLimits.status, 200, JSON.stringify(atLimits.json));
    assert.equal(atLimits.json.status, "accepted");
    const zero = await call(live.url, "POST", `${path}/commands`, {
      query: { lease },
      body: {
        command_id: "c-2",
        observation_id: (await call(live.url, "GET", `${path}/observations`, { query: { lease, wait: 5 } }))
          .json.observation_id,
        noop: true,
        usage: { input_tokens: 0, output_tokens: 0, cost: 0 },
      },
    });
    assert.equal(zero.json.status, "accepted", JSON.stringify(zero.json));
    const after = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
    const engineer = after.scores.agents.find((a: { agent_id: string }) => a.agent_id === "engineer-1");
    assert.deepEqual(engineer.usage, { commands: 2, ...max });
    await call(live.url, "DELETE", `/v1/runs/${runId}`, { body: {} });
  });
});
