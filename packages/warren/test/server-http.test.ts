import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { listScenarios } from "../src/scenarios/index.js";
import { call, serverForSuite, waitFor } from "./helpers/server.js";

const live = serverForSuite();
const small = serverForSuite({ maxLiveRuns: 1, keepEndedRuns: 1 });

const PROTOCOL = "warren-agent/0";

describe("runs and scenarios", () => {
  it("creates a run (201) with the defaults when there is no body, and shows it", async () => {
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      headers: { "content-type": "application/json" },
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("location"), `/v1/runs/${created.json.run_id}`);
    assert.equal(created.json.seed, 0);
    assert.equal(created.json.npc_policy, "solution");
    assert.equal(created.json.deadline_s, 60);
    assert.deepEqual(created.json.controlled_agents, []);
    // No remote agent to wait for: it starts at once and the solution runners finish it.
    const shown = await call(live.url, "GET", `/v1/runs/${created.json.run_id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.json.scenario, "bridge_repair");
    assert.ok(["running", "completed"].includes(shown.json.status));
    assert.equal(shown.json.agents.length, 3);
    assert.equal(shown.json.agents[0].leased, false);
    const listed = await call(live.url, "GET", "/v1/runs");
    assert.ok(listed.json.runs.some((r: { run_id: string }) => r.run_id === created.json.run_id));
  });

  it("takes the worked example's body and waits for its remote agent to be claimed", async () => {
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair", seed: 3 },
      body: { controlled_agents: ["engineer-1"], npc_policy: "solution", pace: null, deadline_s: 5 },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.status, "created");
    assert.equal(created.json.seed, 3);
    assert.equal(created.json.deadline_s, 5);
    const engineer = created.json.agents.find((a: { agent_id: string }) => a.agent_id === "engineer-1");
    assert.equal(engineer.controller, "remote");
    const claim = await call(live.url, "POST", `/v1/runs/${created.json.run_id}/agents/engineer-1/claim`, {
      query: { holder: "tester" },
    });
    assert.equal(claim.status, 200);
    const shown = await call(live.url, "GET", `/v1/runs/${created.json.run_id}`);
    assert.equal(shown.json.status, "running");
    const held = shown.json.agents.find((a: { agent_id: string }) => a.agent_id === "engineer-1");
    assert.equal(held.leased, true);
    assert.equal(held.holder, "tester");
    assert.ok(held.lease_expires_unix > Date.now() / 1000);
  });

  it("starts a run only when every controlled agent has been claimed, and says who is missing", async () => {
    const twice = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1", "courier-1", "engineer-1"] },
    });
    assert.equal(twice.status, 400, "a duplicate is refused, not merged");
    assert.match(twice.json.detail, /body\/controlled_agents must NOT have duplicate items/);
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1", "courier-1"] },
    });
    const runId = created.json.run_id;
    assert.deepEqual(created.json.unclaimed_agents, ["engineer-1", "courier-1"]);
    await call(live.url, "POST", `/v1/runs/${runId}/agents/engineer-1/claim`);
    const waiting = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
    assert.equal(waiting.status, "created");
    assert.deepEqual(waiting.unclaimed_agents, ["courier-1"]);
    assert.equal(waiting.status_reason, "waiting for courier-1 to be claimed");
    await call(live.url, "POST", `/v1/runs/${runId}/agents/courier-1/claim`);
    const running = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
    assert.equal(running.status, "running");
    assert.deepEqual(running.unclaimed_agents, []);
  });

  it("takes npc_policy per agent and an affordance mode, and shows the scores once the run ends", async () => {
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "signal_relay", seed: 4 },
      body: { npc_policy: { "keeper-1": "random" }, affordances: "all" },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json.npc_policy, { "keeper-1": "random" });
    assert.equal(created.json.affordances, "all");
    const controllers = Object.fromEntries(
      created.json.agents.map((a: { agent_id: string; controller: string }) => [a.agent_id, a.controller]),
    );
    assert.deepEqual(controllers, { "keeper-1": "random", "runner-1": "solution" });
    const ended = await waitFor("the run to end", async () => {
      const shown = await call(live.url, "GET", `/v1/runs/${created.json.run_id}`);
      return shown.json.status === "running" ? undefined : shown.json;
    });
    assert.equal(ended.status, "failed", "a random keeper never finds the code");
    assert.equal(ended.scores.completed, false);
    assert.equal(ended.scores.time_ratio, null);
    assert.equal(ended.scores.solution_sim_time_ms, 10_000);
    const runner = ended.scores.agents.find((a: { agent_id: string }) => a.agent_id === "runner-1");
    assert.equal(runner.controller, "solution");
    assert.equal(runner.messages, 1, "the runner told the plate");
    assert.equal(runner.credits, 2, "reaching the gate and telling the plate");
    assert.equal(ended.scores.score, 0.5, "two of signal_relay's four steps");
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ npc_policy: { "pilot-9": "random" } }, /npc_policy names "pilot-9", which is not an agent here/],
      [{ npc_policy: { "keeper-1": "clever" } }, /npc_policy/],
      [{ npc_policy: { "keeper-1": "noop" }, controlled_agents: ["keeper-1"] }, /controlled remotely/],
      [{ affordances: "some" }, /affordances must be equal to one of the allowed values/],
    ];
    for (const [body, detail] of bad) {
      const reply = await call(live.url, "POST", "/v1/runs", { query: { scenario: "signal_relay" }, body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(reply.json.detail, detail);
    }
  });

  it("refuses bad run options with 400 and names the field, never coercing", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ pace: "1" }, /body\/pace must be number,null/],
      [{ pace: 0 }, /body\/pace must be > 0/],
      [{ npc_policy: "all" }, /npc_policy must be equal to one of the allowed values/],
      [{ controlled_agents: "engineer-1" }, /controlled_agents must be array/],
      [{ deadline_s: 0 }, /deadline_s must be > 0/],
      [{ deadline_s: 86_401 }, /deadline_s must be <= 86400/],
      [{ colour: "red" }, /must NOT have additional properties/],
    ];
    for (const [body, detail] of cases) {
      const reply = await call(live.url, "POST", "/v1/runs", { query: { scenario: "bridge_repair" }, body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.json.error, "bad_request");
      assert.match(reply.json.detail, detail);
    }
    const seed = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair", seed: -1 },
      body: {},
    });
    assert.equal(seed.status, 400);
    assert.match(seed.json.detail, /querystring\/seed must be >= 0/);
    const bigSeed = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair", seed: 2 ** 32 },
      body: {},
    });
    assert.equal(bigSeed.status, 400);
    const noScenario = await call(live.url, "POST", "/v1/runs", { body: {} });
    assert.equal(noScenario.status, 400);
    assert.match(noScenario.json.detail, /scenario/);
    const agent = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["pilot-9"] },
    });
    assert.equal(agent.status, 400);
    assert.match(agent.json.detail, /no agent "pilot-9"/);
  });

  it("answers 404 for an unknown scenario, run, agent or route", async () => {
    const scenario = await call(live.url, "POST", "/v1/runs", { query: { scenario: "moon_base" }, body: {} });
    assert.equal(scenario.status, 404);
    assert.equal(scenario.json.error, "unknown_scenario");
    assert.match(scenario.json.detail, /bridge_repair/);
    const run = await call(live.url, "GET", "/v1/runs/run-999");
    assert.equal(run.status, 404);
    assert.equal(run.json.error, "unknown_run");
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1"] },
    });
    for (const [method, path] of [
      ["POST", "claim"],
      ["GET", "briefing"],
      ["GET", "observations"],
      ["POST", "release"],
      ["GET", "commands/c-1"],
      ["POST", "commands"],
    ] as const) {
      const reply = await call(live.url, method, `/v1/runs/${created.json.run_id}/agents/pilot-9/${path}`);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.json.error, "unknown_agent");
    }
    const route = await call(live.url, "GET", "/v1/nowhere");
    assert.equal(route.status, 404);
    assert.equal(route.json.error, "not_found");
    assert.equal(route.headers.get("x-warren-protocol"), PROTOCOL);
  });

  it("lists the bundled scenarios", async () => {
    const reply = await call(live.url, "GET", "/v1/scenarios");
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json.scenarios, listScenarios());
  });
});

describe("run limits", () => {
  it("refuses a run past the live-run limit with 503 and forgets the oldest ended runs", async () => {
    const create = (controlled: string[]) =>
      call(small.url, "POST", "/v1/runs", {
        query: { scenario: "bridge_repair" },
        body: { controlled_agents: controlled },
      });
    const waiting = await create(["engineer-1"]);
    assert.equal(waiting.status, 201);
    const refused = await create([]);
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error, "too_many_runs");
    small.server.registry.get(waiting.json.run_id).run.dispose("done waiting");
    // With no remote agent this one runs to its end at once.
    const quick = await create([]);
    assert.equal(quick.status, 201);
    const quickView = await call(small.url, "GET", `/v1/runs/${quick.json.run_id}`);
    assert.equal(quickView.json.status, "completed");
    const forgotten = await call(small.url, "GET", `/v1/runs/${waiting.json.run_id}`);
    assert.equal(forgotten.status, 404);
  });
});

describe("bad bodies", () => {
  it("answers malformed JSON with 400 and the parser's reason", async () => {
    const reply = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      rawBody: '{"pace":',
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.json.error, "malformed_json");
    assert.match(reply.json.detail, /not valid JSON: .*JSON/);
  });

  it("takes Content-Type: application/json with an empty body as no body", async () => {
    const json = { "content-type": "application/json" };
    const empty = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      rawBody: "",
      headers: json,
    });
    assert.equal(empty.status, 201, "no body: every default");
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1"] },
    });
    const agent = `/v1/runs/${created.json.run_id}/agents/engineer-1`;
    const claim = await call(live.url, "POST", `${agent}/claim`, { rawBody: "", headers: json });
    assert.equal(claim.status, 200);
    const release = await call(live.url, "POST", `${agent}/release`, {
      query: { lease: claim.json.lease },
      rawBody: "",
      headers: json,
    });
    assert.equal(release.status, 200);
    const command = await call(live.url, "POST", `${agent}/commands`, {
      query: { lease: (await call(live.url, "POST", `${agent}/claim`)).json.lease },
      rawBody: "",
      headers: json,
    });
    assert.equal(command.status, 422, "a command with no body cannot be judged");
    assert.equal(command.json.error, "unprocessable_command");
  });

  it("answers a body that is not JSON with 415 and one too large with 413", async () => {
    const text = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      rawBody: "hello",
      headers: { "content-type": "text/plain" },
    });
    assert.equal(text.status, 415);
    assert.equal(text.json.error, "unsupported_media_type");
    const huge = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      rawBody: JSON.stringify({ pad: "x".repeat(1 << 20) }),
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.json.error, "body_too_large");
    assert.equal(huge.headers.get("x-warren-protocol"), PROTOCOL);
    const badUrl = await fetch(`${live.url}/v1/runs/%E0%A4%A`);
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.headers.get("x-warren-protocol"), PROTOCOL);
    assert.deepEqual(Object.keys((await badUrl.json()) as object), ["error", "detail"]);
    // And the server is still fine.
    assert.equal((await call(live.url, "GET", "/v1/scenarios")).status, 200);
  });
});

describe("protocol version", () => {
  it("sends X-Warren-Protocol on every /v1 response, errors included", async () => {
    for (const [method, path] of [
      ["GET", "/v1/scenarios"],
      ["GET", "/v1/runs"],
      ["GET", "/v1/runs/nope"],
      ["POST", "/v1/runs"],
      ["GET", "/v1/openapi.json"],
    ] as const) {
      const reply = await call(live.url, method, path);
      assert.equal(reply.headers.get("x-warren-protocol"), PROTOCOL, `${method} ${path}`);
    }
  });

  it("refuses another version with 409, by header or by protocol= on claim; none is fine", async () => {
    const other = await call(live.url, "GET", "/v1/scenarios", {
      headers: { "x-warren-protocol": "warren-agent/1" },
    });
    assert.equal(other.status, 409);
    assert.equal(other.json.error, "protocol_mismatch");
    assert.equal(other.headers.get("x-warren-protocol"), PROTOCOL);
    const same = await call(live.url, "GET", "/v1/scenarios", { headers: { "x-warren-protocol": PROTOCOL } });
    assert.equal(same.status, 200);
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1"] },
    });
    const claimPath = `/v1/runs/${created.json.run_id}/agents/engineer-1/claim`;
    const wrong = await call(live.url, "POST", claimPath, { query: { protocol: "warren-agent/9" } });
    assert.equal(wrong.status, 409);
    assert.equal(wrong.json.error, "protocol_mismatch");
    const right = await call(live.url, "POST", claimPath, { query: { protocol: PROTOCOL } });
    assert.equal(right.status, 200);
    assert.match(right.json.lease, /^l-[0-9a-f]{32}$/);
  });
});
