import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { engineerDecides } from "../examples/bridge-engineer.js";
import { OpenApiClient } from "./helpers/openapi-client.js";
import { call, serverForSuite } from "./helpers/server.js";

const live = serverForSuite();

async function document() {
  const reply = await call(live.url, "GET", "/v1/openapi.json");
  assert.equal(reply.status, 200);
  return reply.json;
}

describe("OpenAPI", () => {
  it("serves a valid OpenAPI 3.1 document", async () => {
    const doc = await document();
    assert.equal(doc.openapi, "3.1.0");
    const result = await new Validator().validate(doc);
    assert.deepEqual(result, { valid: true });
  });

  it("names the protocol's messages, the lease, the header, every status and the spectator's frames", async () => {
    const doc = await document();
    const named = Object.keys(doc.components.schemas);
    for (const name of [
      "Envelope",
      "Observation",
      "Affordance",
      "Briefing",
      "ToolSpec",
      "Objective",
      "Receipt",
      "CommandBody",
      "ErrorBody",
      "CreateRunRequest",
      "RunView",
      "ClaimResponse",
      "RunEvent",
      "LaggedFrame",
      "SpectatorFrame",
      "RunEndedEvent",
      "RunScores",
      "AgentScore",
      "NpcPolicy",
      "NpcPolicies",
      "AffordanceMode",
      "Controller",
    ]) {
      assert.ok(named.includes(name), name);
    }
    const schemas = doc.components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    assert.deepEqual(schemas.RunView.properties.scores, ref("RunScores"));
    assert.deepEqual(schemas.RunView.properties.affordances, ref("AffordanceMode"));
    assert.deepEqual(schemas.CreateRunRequest.properties.npc_policy, ref("NpcPolicies"));
    assert.deepEqual(schemas.CreateRunRequest.properties.affordances, ref("AffordanceMode"));
    assert.deepEqual(schemas.NpcPolicy.enum, ["solution", "none", "noop", "random", "greedy"]);
    assert.deepEqual(schemas.RunEndedEvent.properties.data.properties.scores, ref("RunScores"));
    assert.deepEqual(schemas.CommandBody.oneOf, [
      ref("ActionCommand"),
      ref("SleepCommand"),
      ref("NoopCommand"),
    ]);
    assert.deepEqual(schemas.Lane.enum, ["body", "voice"]);
    assert.deepEqual(schemas.ToolSpec.properties.lane, ref("Lane"));
    // A default in words, not `default`, so generators leave the field optional.
    const deadline = schemas.CreateRunRequest.properties.deadline_s;
    assert.ok(!("default" in deadline) && / default 60$/.test(deadline.description), deadline.description);
    assert.deepEqual(doc.info.license, { name: "MIT", identifier: "MIT" });
    assert.equal(doc.servers[0].url, "/");
    const frames = doc.paths["/v1/runs/{run}/spectate"].get.responses["200"];
    assert.deepEqual(frames.content["application/json"].schema, ref("SpectatorFrame"));
    // A decision event carries its receipt; a refused action is that one event.
    assert.deepEqual(schemas.RunEvent.properties.receipt, ref("Receipt"));
    assert.ok(!schemas.RunEvent.required.includes("receipt"));
    assert.match(
      schemas.RunEvent.description,
      /a refused action is that one event.*`refused`.*`wakes_at_ms`/,
    );
    assert.deepEqual(doc.components.securitySchemes.leaseQuery, {
      type: "apiKey",
      in: "query",
      name: "lease",
      description: "the token from claimAgent",
    });
    assert.equal(doc.components.securitySchemes.leaseBearer.scheme, "bearer");
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods as object));
    const statuses = new Set<string>();
    for (const op of operations) {
      assert.equal(op.parameters[0].$ref, "#/components/parameters/ProtocolHeader", op.operationId);
      for (const [status, answer] of Object.entries(op.responses as Record<string, { headers: object }>)) {
        statuses.add(status);
        assert.ok("X-Warren-Protocol" in answer.headers, `${op.operationId} ${status}`);
      }
    }
    for (const status of ["400", "401", "403", "404", "409", "410", "413", "415", "422", "500"]) {
      assert.ok(statuses.has(status), status);
    }
    const agent = "/v1/runs/{run}/agents/{agent}";
    const briefing = doc.paths[`${agent}/briefing`].get;
    assert.ok(briefing.responses["200"].headers.ETag);
    assert.ok(briefing.responses["304"]);
    assert.ok(
      briefing.parameters.some(
        (p: { name: string; in: string }) => p.name === "if-none-match" && p.in === "header",
      ),
    );
    assert.deepEqual(briefing.security, [{ leaseQuery: [] }, { leaseBearer: [] }]);
    const poll = doc.paths[`${agent}/observations`].get;
    assert.match(poll.parameters.find((p: { name: string }) => p.name === "wait").description, /cut to 30/);
    assert.match(poll.description, /whatever after says/);
    assert.equal(doc.paths["/v1/runs"].post.requestBody.required, false);
    assert.match(
      doc.paths["/v1/runs"].post.description,
      /starts when every controlled agent has been claimed/,
    );
    // Every route of a run but GET answers 410 once the server keeps only the run's summary.
    for (const [path, method] of [
      [`${agent}/briefing`, "get"],
      [`${agent}/commands`, "post"],
      [`${agent}/commands/{command_id}`, "get"],
      [`${agent}/release`, "post"],
      ["/v1/runs/{run}/spectate", "get"],
    ] as const) {
      assert.match(doc.paths[path][method].responses["410"].description, /keeps only its summary/, path);
    }
    assert.match(doc.paths["/v1/runs/{run}"].get.description, /forgotten \(404 unknown_run/);
    const spectate = doc.paths["/v1/runs/{run}/spectate"].get;
    assert.ok(spectate.responses["101"]);
    assert.deepEqual(Object.keys(spectate["x-websocket"].close_codes), ["1000", "1013"]);
    assert.equal(spectate["x-websocket"].frames.$ref, "#/components/schemas/SpectatorFrame");
  });

  it("drives a client from the document alone and plays bridge_repair's engineer to a win", async () => {
    const api = new OpenApiClient(await document(), live.url);
    const scenarios = await api.call("listScenarios");
    assert.ok(scenarios.body.scenarios.some((s: { name: string }) => s.name === "bridge_repair"));
    const created = await api.call("createRun", {
      query: { scenario: "bridge_repair", seed: 3 },
      body: { controlled_agents: ["engineer-1"] },
    });
    assert.equal(created.status, 201);
    const run = created.body.run_id;
    const agent = { run, agent: "engineer-1" };
    const claim = await api.call("claimAgent", { path: agent, query: { holder: "openapi" } });
    const lease = claim.body.lease;
    const briefing = await api.call("getBriefing", { path: agent, lease });
    const etag = briefing.headers.get("etag")!;
    const cached = await api.call("getBriefing", { path: agent, lease, headers: { "if-none-match": etag } });
    assert.equal(cached.status, 304);
    let after = -1;
    let commands = 0;
    for (;;) {
      const polled = await api.call("pollObservations", { path: agent, lease, query: { after, wait: 5 } });
      if (polled.status === 410) {
        assert.equal(polled.body.status, "completed");
        break;
      }
      if (polled.status === 204) continue;
      const envelope = polled.body;
      const decided = engineerDecides(envelope.observation);
      const offered =
        !("action" in decided) ||
        envelope.affordances.some((a: { action: string }) => a.action === decided.action);
      const payload = offered ? decided : { sleep_ms: 1000 };
      const command_id = `oa-${++commands}`;
      const receipt = await api.call("submitCommand", {
        path: agent,
        lease,
        body: { command_id, observation_id: envelope.observation_id, ...payload },
      });
      assert.equal(receipt.body.status, "accepted", receipt.body.detail);
      after = envelope.seq;
      const later = await api.call("getCommand", { path: { ...agent, command_id }, lease });
      assert.equal(later.body.command_id, command_id);
    }
    const shown = await api.call("getRun", { path: { run } });
    assert.equal(shown.body.status, "completed");
    const released = await api.call("releaseAgent", { path: agent, lease });
    assert.equal(released.body.released, true);
    const refused = await api.call("getRun", { path: { run: "run-none" } });
    assert.equal(refused.status, 404);
  });
});
