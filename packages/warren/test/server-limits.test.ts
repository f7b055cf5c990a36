import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_ARGS_FIELDS,
  MAX_ARGS_JSON_CHARS,
  MAX_COMMAND_ID_CHARS,
  MAX_HOLDER_CHARS,
  MAX_ID_CHARS,
  MAX_NAME_CHARS,
  MAX_NAMED_AGENTS,
} from "../src/protocol/index.js";
import { call, runWithClaims, serverForSuite, waitFor } from "./helpers/server.js";

/** Every solution run of a bundled scenario keeps well under this; a client's flood does not. */
const RUN_BYTES = 64_000;
const live = serverForSuite({ maxRunBytes: RUN_BYTES });
/** Room for one solution run of bridge_repair (about 18,500 bytes), not two. */
const ENDED_BYTES = 30_000;
const keeper = serverForSuite({ endedRunBytes: ENDED_BYTES });

/** A bridge_repair run with engineer-1 remote and claimed, and a way to answer its observations. */
async function engineer() {
  const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"]);
  const lease = leases["engineer-1"]!;
  const path = `/v1/runs/${runId}/agents/engineer-1`;
  const poll = async () =>
    (await call(live.url, "GET", `${path}/observations`, { query: { lease, wait: 5 } })).json;
  const submit = (command: unknown) =>
    call(live.url, "POST", `${path}/commands`, { query: { lease }, body: command });
  return { runId, lease, path, poll, submit };
}

function assertLimit(
  reply: { status: number; json: { error: string; detail: string } },
  limit: RegExp,
): void {
  assert.equal(reply.status, 422, JSON.stringify(reply.json));
  assert.equal(reply.json.error, "limit_exceeded");
  assert.match(reply.json.detail, limit);
}

describe("limits on what a client sends", () => {
  it("takes a command at each limit and refuses one past it with 422 naming the limit", async () => {
    const { poll, submit } = await engineer();
    const envelope = await poll();
    const longId = "c".repeat(MAX_COMMAND_ID_CHARS + 1);
    assertLimit(
      await submit({ command_id: longId, observation_id: envelope.observation_id, noop: true }),
      new RegExp(`command_id is ${MAX_COMMAND_ID_CHARS + 1} characters; at most ${MAX_COMMAND_ID_CHARS}`),
    );
    assertLimit(
      await submit({ command_id: "c-1", observation_id: "o".repeat(MAX_COMMAND_ID_CHARS + 1), noop: true }),
      /observation_id is 129 characters; at most 128/,
    );
    assertLimit(
      await submit({
        command_id: "c-1",
        observation_id: envelope.observation_id,
        action: "a".repeat(MAX_NAME_CHARS + 1),
      }),
      /action is 65 characters; at most 64/,
    );
    const manyFields = Object.fromEntries(
      Array.from({ length: MAX_ARGS_FIELDS + 1 }, (_, i) => [`f${i}`, i]),
    );
    assertLimit(
      await submit({
        command_id: "c-1",
        observation_id: envelope.observation_id,
        action: "take",
        args: manyFields,
      }),
      /args has 33 fields; at most 32/,
    );
    const bigArgs = { item: "x".repeat(MAX_ARGS_JSON_CHARS) };
    assertLimit(
      await submit({
        command_id: "c-1",
        observation_id: envelope.observation_id,
        action: "take",
        args: bigArgs,
      }),
      new RegExp(`args is \\d+ characters as JSON; at most ${MAX_ARGS_JSON_CHARS}`),
    );
    const manyKeys = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]));
    assertLimit(await submit({ command_id: "c-1", ...manyKeys }), /a command has 9 fields; at most 8/);
    // At the limits: a 128-character id and args of exactly the JSON size allowed are taken.
    const atLimit = "i".repeat(MAX_COMMAND_ID_CHARS);
    const filler = "y".repeat(MAX_ARGS_JSON_CHARS - JSON.stringify({ item: "" }).length);
    const judged = await submit({
      command_id: atLimit,
      observation_id: envelope.observation_id,
      action: "take",
      args: { item: filler },
    });
    assert.equal(judged.status, 200);
    assert.equal(judged.json.status, "accepted", "no such item: the engine refuses it as it takes effect");
    assert.equal(judged.json.command_id, atLimit);
  });

  it("refuses names, lists and ids past their limits at every route with 422", async () => {
    const { runId, path } = await engineer();
    const create = (query: Record<string, string>, body: unknown) =>
      call(live.url, "POST", "/v1/runs", { query, body });
    assertLimit(
      await create({ scenario: "s".repeat(MAX_NAME_CHARS + 1) }, {}),
      /querystring\/scenario must NOT have more than 64 characters/,
    );
    const agents = Array.from({ length: MAX_NAMED_AGENTS + 1 }, (_, i) => `agent-${i}`);
    assertLimit(
      await create({ scenario: "bridge_repair" }, { controlled_agents: agents }),
      /controlled_agents must NOT have more than 256 items/,
    );
    assertLimit(
      await create({ scenario: "bridge_repair" }, { controlled_agents: ["e".repeat(MAX_NAME_CHARS + 1)] }),
      /controlled_agents\/0 must NOT have more than 64 characters/,
    );
    const policies = Object.fromEntries(agents.map((a) => [a, "noop"]));
    assertLimit(
      await create({ scenario: "bridge_repair" }, { npc_policy: policies }),
      /more than 256 properties/,
    );
    assertLimit(
      await call(live.url, "POST", `${path}/claim`, { query: { holder: "h".repeat(MAX_HOLDER_CHARS + 1) } }),
      /holder must NOT have more than 64 characters/,
    );
    assertLimit(
      await call(live.url, "GET", `${path}/observations`, { query: { lease: "l".repeat(MAX_ID_CHARS + 1) } }),
      /lease must NOT have more than 128 characters/,
    );
    assertLimit(
      await call(live.url, "GET", `/v1/runs/${runId}/agents/${"a".repeat(MAX_NAME_CHARS + 1)}/briefing`),
      /params\/agent must NOT have more than 64 characters/,
    );
    assertLimit(await call(live.url, "GET", `/v1/runs/${"r".repeat(MAX_ID_CHARS + 1)}`), /params\/run/);
  });

  it("documents the limits in the OpenAPI document", async () => {
    const document = (await call(live.url, "GET", "/v1/openapi.json")).json;
    const command = document.components.schemas.ActionCommand;
    for (const form of ["ActionCommand", "SleepCommand", "NoopCommand"]) {
      const ids = document.components.schemas[form].properties;
      assert.equal(ids.command_id.maxLength, MAX_COMMAND_ID_CHARS, form);
      assert.equal(ids.observation_id.maxLength, MAX_COMMAND_ID_CHARS, form);
    }
    assert.equal(command.properties.command_id.maxLength, MAX_COMMAND_ID_CHARS);
    assert.equal(command.properties.action.maxLength, MAX_NAME_CHARS);
    assert.equal(command.properties.args.maxProperties, MAX_ARGS_FIELDS);
    assert.match(command.properties.args.description, /at most 4096 characters as JSON/);
    const create = document.components.schemas.CreateRunRequest;
    assert.equal(create.properties.controlled_agents.maxItems, MAX_NAMED_AGENTS);
    assert.equal(create.properties.claim_within_s.maximum, 3600);
    assert.ok(document.paths["/v1/runs/{run}"].delete, "DELETE /v1/runs/{run} is declared");
  });
});

describe("a run's byte budget", () => {
  it("ends a run whose commands fill its budget as over_budget, and leaves the other runs whole", async () => {
    const honest = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "signal_relay", seed: 4 },
      body: { pace: 5 }, // its 10 sim seconds take 2 wall seconds: it is live through the flood
    });
    assert.equal(honest.status, 201);
    const { runId, poll, submit } = await engineer();
    let sent = 0;
    for (;;) {
      const envelope = await poll();
      if (envelope === undefined) break; // the run ended: a 410 has no envelope field
      if (envelope.error === "run_ended") break;
      const id = `${String(sent++).padStart(8, "0")}${"x".repeat(MAX_COMMAND_ID_CHARS - 8)}`;
      const receipt = await submit({ command_id: id, observation_id: envelope.observation_id, sleep_ms: 1 });
      if (receipt.json.status !== "accepted") break;
      assert.ok(sent < 2000, "the budget ends the run long before this");
    }
    const flooded = await waitFor("the flooded run to end", async () => {
      const view = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
      return view.status === "running" ? undefined : view;
    });
    assert.equal(flooded.status, "over_budget");
    assert.match(flooded.status_reason, new RegExp(`over its budget of ${RUN_BYTES}`));
    const kept = live.server.registry.get(runId).run;
    assert.ok(
      kept.retainedBytes > RUN_BYTES && kept.retainedBytes < RUN_BYTES + 2_000,
      `${kept.retainedBytes}`,
    );
    const poll410 = await call(live.url, "GET", `/v1/runs/${runId}/agents/engineer-1/observations`, {
      query: { lease: "any" },
    });
    assert.equal(poll410.status, 410);
    assert.equal(poll410.json.status, "over_budget");
    const other = await waitFor("the other run to end", async () => {
      const view = (await call(live.url, "GET", `/v1/runs/${honest.json.run_id}`)).json;
      return view.status === "running" ? undefined : view;
    });
    assert.equal(other.status, "completed", "the other run on the server is unharmed");
  });
});

describe("the ended runs' byte budget", () => {
  it("lets the oldest ended runs go to their summary once together they pass it", async () => {
    const ended: string[] = [];
    for (const seed of [3, 4]) {
      const created = await call(keeper.url, "POST", "/v1/runs", {
        query: { scenario: "bridge_repair", seed },
        body: {},
      });
      await keeper.server.registry.get(created.json.run_id).run.whenEnded();
      ended.push(created.json.run_id);
    }
    const [older, latest] = ended as [string, string];
    const letGo = await call(keeper.url, "POST", `/v1/runs/${older}/agents/engineer-1/claim`);
    assert.equal(letGo.status, 410);
    assert.match(
      letGo.json.detail,
      new RegExp(`only its summary is kept now .* and ${ENDED_BYTES} bytes in all`),
    );
    assert.equal(
      (await call(keeper.url, "GET", `/v1/runs/${older}`)).json.status,
      "completed",
      "its summary stays",
    );
    const whole = await call(keeper.url, "GET", `/runs/${latest}/scene`);
    assert.equal(whole.status, 200, "the latest ended run stays whole");
  });
});
