import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { WebSocket } from "ws";
import { playBridgeEngineer } from "../examples/bridge-engineer.js";
import type { ScenarioDefinition } from "../src/engine/index.js";
import { bridgeRepair } from "../src/scenarios/bridge_repair/scenario.js";
import { bundledScenarios, type ScenarioCatalog } from "../src/server/index.js";
import {
  call,
  engineerAwaitingCourier,
  runWithClaims,
  serverForSuite,
  startTestServer,
} from "./helpers/server.js";

/** bridge_repair whose courier's runner dies on its first wake after the start. */
const fragileBridge: ScenarioDefinition = {
  ...bridgeRepair,
  name: "fragile_bridge",
  solution(agentId) {
    const runner = bridgeRepair.solution(agentId);
    if (agentId !== "courier-1") return runner;
    return {
      decide(observation) {
        if (observation.time > 0) throw new Error("the courier's runner fell over");
        return runner.decide(observation);
      },
    };
  },
};

const catalog: ScenarioCatalog = {
  find: (name) => (name === fragileBridge.name ? fragileBridge : bundledScenarios.find(name)),
  list: () => bundledScenarios.list(),
};

const live = serverForSuite({ scenarios: catalog });

describe("ended runs", () => {
  it("answers polls and claims on a completed run with 410 and its terminal status", async () => {
    const { runId, status } = await playBridgeEngineer(live.url);
    assert.equal(status, "completed");
    const view = await call(live.url, "GET", `/v1/runs/${runId}`);
    assert.equal(view.json.status, "completed");
    assert.ok(view.json.objectives.every((o: { status: string }) => o.status === "completed"));
    const agent = `/v1/runs/${runId}/agents/engineer-1`;
    const claim = await call(live.url, "POST", `${agent}/claim`);
    assert.equal(claim.status, 410);
    assert.equal(claim.json.error, "run_ended");
    assert.equal(claim.json.status, "completed");
    assert.match(claim.json.detail, /has ended: completed/);
    const poll = await call(live.url, "GET", `${agent}/observations`, {
      query: { lease: "anything", wait: 1 },
    });
    assert.equal(poll.status, 410);
    assert.equal(poll.json.status, "completed");
  });

  it("marks a run whose task dies as crashed, never a stale running", async () => {
    const { runId, leases } = await runWithClaims(live.url, "fragile_bridge", ["engineer-1"]);
    const agent = `/v1/runs/${runId}/agents/engineer-1`;
    const lease = leases["engineer-1"]!;
    const envelope = await call(live.url, "GET", `${agent}/observations`, { query: { lease, wait: 5 } });
    assert.equal(envelope.status, 200);
    // A long sleep lets time run to the courier's next wake, where its runner throws.
    const answer = await call(live.url, "POST", `${agent}/commands`, {
      query: { lease },
      body: { command_id: "c-1", observation_id: envelope.json.observation_id, sleep_ms: 600_000 },
    });
    assert.equal(answer.json.status, "accepted");
    const poll = await call(live.url, "GET", `${agent}/observations`, {
      query: { lease, after: envelope.json.seq, wait: 5 },
    });
    assert.equal(poll.status, 410);
    assert.equal(poll.json.status, "crashed");
    assert.match(poll.json.detail, /crashed \(.*fell over\)/);
    const view = await call(live.url, "GET", `/v1/runs/${runId}`);
    assert.equal(view.json.status, "crashed");
    assert.match(view.json.status_reason, /fell over/);
    // Its accepted command keeps a settled receipt, never left pending.
    const receipt = await call(live.url, "GET", `${agent}/commands/c-1`, { query: { lease } });
    assert.equal(receipt.json.status, "accepted");
    assert.notEqual(receipt.json.outcome, "pending");
  });

  it("expires an observation left open when its run ends, saying so", async () => {
    const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"]);
    const agent = `/v1/runs/${runId}/agents/engineer-1`;
    const lease = leases["engineer-1"]!;
    const envelope = await call(live.url, "GET", `${agent}/observations`, { query: { lease, wait: 5 } });
    live.server.registry.get(runId).run.dispose("stopped by the test");
    const late = await call(live.url, "POST", `${agent}/commands`, {
      query: { lease },
      body: { command_id: "late", observation_id: envelope.json.observation_id, sleep_ms: "x" },
    });
    assert.equal(late.status, 200);
    assert.equal(late.json.status, "expired");
    assert.match(late.json.detail, /the run ended \(crashed\)/);
  });

  it("ends every running run as interrupted when the server stops, answering its long polls", async () => {
    const own = await startTestServer();
    const { runId, agent, lease, envelope } = await engineerAwaitingCourier(own.url);
    const waiting = call(own.url, "GET", `${agent}/observations`, {
      query: { lease, after: envelope.seq, wait: 25 },
    });
    const spectator = new WebSocket(`${own.url.replace("http", "ws")}/v1/runs/${runId}/spectate`);
    const frames: { kind: string; data?: { status?: string } }[] = [];
    spectator.on("message", (data) => frames.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => spectator.once("close", resolve));
    await new Promise((resolve) => spectator.once("open", resolve));
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.close();
    const woken = await waiting;
    assert.equal(woken.status, 410);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(woken.json.error, "run_interrupted");
    assert.equal(own.registry.get(runId).run.status, "interrupted");
    // The spectator saw the run end before its socket closed.
    assert.equal(await closed, 1000);
    assert.deepEqual(frames.at(-1)?.data?.status, "interrupted");
  });

  it("closes at once though a client holds a connection it never sent a request on", async () => {
    const own = await startTestServer();
    // As fetch does after an aborted request: a connection opened ahead, left unused.
    const socket = connect(Number(new URL(own.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    // A closed server checks no header timeout any more: such a connection would hold it for good.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((resolve) => {
      timer = setTimeout(resolve, 10_000, "still closing after 10 s");
    });
    const outcome = await Promise.race([own.close().then(() => "closed"), late]);
    clearTimeout(timer);
    socket.destroy();
    assert.equal(outcome, "closed");
  });
});
