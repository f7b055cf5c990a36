import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { engineerDecides, playBridgeEngineer } from "../examples/bridge-engineer.js";
import {
  playAgent,
  RunEndedError,
  type RunEvent,
  WarrenClient,
  WarrenHttpError,
} from "../src/client/index.js";
import type { ListeningServer } from "../src/server/index.js";
import { catalogWithLoudYard } from "./helpers/loud-yard.js";
import { startTestServer, waitFor } from "./helpers/server.js";
import { TcpProxy } from "./helpers/server-proxy.js";

let server: ListeningServer;
let proxy: TcpProxy;
let warren: WarrenClient;
before(async () => {
  server = await startTestServer({
    spectatorMaxBufferedBytes: 64 * 1024,
    leaseTtlS: 300,
    scenarios: catalogWithLoudYard,
  });
  proxy = await TcpProxy.start(server.url);
  warren = new WarrenClient(proxy.url);
});
after(async () => {
  await proxy.close();
  await server.close();
});

async function engineerRun(): Promise<string> {
  const run = await warren.createRun("bridge_repair", { seed: 3, controlled_agents: ["engineer-1"] });
  return run.run_id;
}

describe("TypeScript client", () => {
  it("creates runs, lists them and the scenarios, and plays engineer-1 to a win", async () => {
    const scenarios = await warren.scenarios();
    assert.ok(scenarios.some((s) => s.name === "bridge_repair"));
    const { runId, status } = await playBridgeEngineer(proxy.url);
    assert.equal(status, "completed");
    const run = await warren.run(runId);
    assert.equal(run.status, "completed");
    assert.ok((await warren.runs()).some((r) => r.run_id === runId));
    await assert.rejects(
      warren.run("run-none"),
      (e: unknown) => e instanceof WarrenHttpError && e.status === 404,
    );
  });

  it("fetches the briefing once per revision", async () => {
    const session = warren.agent(await engineerRun(), "engineer-1");
    const claim = await session.claim();
    const before = proxy.requests.filter((r) => r.includes("/briefing")).length;
    const first = await session.briefing(claim.briefing_revision);
    const second = await session.briefing(claim.briefing_revision);
    assert.equal(second, first);
    assert.equal(proxy.requests.filter((r) => r.includes("/briefing")).length, before + 1);
    assert.equal(first.agent_id, "engineer-1");
  });

  it("retries a submission whose response was lost under the same command_id and gets the duplicate", async () => {
    const runId = await engineerRun();
    const session = warren.agent(runId, "engineer-1");
    const envelope = (await session.observe(5))!;
    proxy.dropResponseOf(/^POST \/v1\/runs\/[^/]+\/agents\/engineer-1\/commands/);
    const receipt = await session.submit(envelope, engineerDecides(envelope.observation), "c-lost");
    assert.equal(receipt.status, "duplicate");
    assert.equal(receipt.command_id, "c-lost");
    const posts = proxy.requests.filter((r) =>
      r.startsWith(`POST /v1/runs/${runId}/agents/engineer-1/commands`),
    );
    assert.equal(posts.length, 2);
    assert.equal((await session.receipt("c-lost")).status, "accepted");
  });

  it("resumes its lease after a reconnect and gets the outstanding envelope again", async () => {
    const runId = await engineerRun();
    const first = warren.agent(runId, "engineer-1");
    const envelope = (await first.observe(5))!;
    // A new process with the saved lease: the same lease, the same envelope.
    const again = warren.agent(runId, "engineer-1", { lease: first.lease });
    const claim = await again.claim();
    assert.equal(claim.resumed, true);
    assert.equal(claim.lease, first.lease);
    assert.deepEqual(await again.observe(5), envelope);
    // Someone without the lease cannot take it.
    await assert.rejects(
      warren.agent(runId, "engineer-1").claim(),
      (e: unknown) => e instanceof WarrenHttpError && e.status === 409 && e.code === "agent_leased",
    );
    // After a release, a session whose lease was dropped claims a fresh one by itself.
    await first.release();
    const envelopeAgain = await again.observe(5);
    assert.notEqual(again.lease, claim.lease);
    assert.equal(envelopeAgain?.observation_id, envelope.observation_id);
    const receipt = await again.submit(envelopeAgain!, { noop: true });
    assert.equal(receipt.status, "accepted");
  });

  it("never sends what the affordances exclude: such a decision is decided again", async () => {
    const runId = await engineerRun();
    const run = server.registry.get(runId).run;
    const rejections: (string | undefined)[] = [];
    const status = await playAgent(
      warren.agent(runId, "engineer-1"),
      ({ rejection }) => {
        rejections.push(rejection);
        if (rejections.length === 1) return { action: "fly", args: {} };
        if (rejections.length === 2) return { action: "move_to", args: { dest: "moon" } };
        return { noop: true };
      },
      { onReceipt: () => run.dispose("the test is done") },
    );
    assert.equal(status, "crashed");
    assert.equal(rejections[0], undefined);
    assert.match(rejections[1]!, /^"fly" is not offered now; offered: .*move_to/);
    assert.match(rejections[2]!, /^move_to's dest must be one of .*workshop|bridge/);
    const commands = run.events().filter((e) => e.kind === "verdict" || e.receipt);
    assert.deepEqual(
      commands.map((e) => `${e.kind} ${e.receipt?.status}`),
      ["decision accepted"],
      "only the noop reached the server",
    );
  });

  it("reports the end of the run as RunEndedError with its status", async () => {
    const runId = await engineerRun();
    const session = warren.agent(runId, "engineer-1");
    await session.observe(5);
    server.registry.get(runId).run.dispose("stopped by the test");
    await assert.rejects(
      session.observe(1),
      (e: unknown) => e instanceof RunEndedError && e.status === "crashed",
    );
  });

  it("spectates to the end, resuming after a lagged close without losing or repeating an event", async () => {
    const { run_id: runId } = await warren.createRun("loud_yard", { controlled_agents: ["shouter-1"] });
    const session = warren.agent(runId, "shouter-1");
    await session.claim();
    const run = server.registry.get(runId).run;
    const shout = async (bytes: number) => {
      const envelope = (await session.observe(5))!;
      await session.submit(envelope, { action: "shout", args: { bytes } });
    };
    const seen: RunEvent[] = [];
    const lags: number[] = [];
    const following = warren.spectate(runId, { onEvent: (e) => seen.push(e), onLagged: (c) => lags.push(c) });
    await waitFor("the stream to start", async () => (seen.length > 0 ? true : undefined));
    proxy.pauseDownstream(/\/spectate/);
    const serverSide = [...server.app.websocketServer.clients];
    for (let i = 0; i < 200 && serverSide.every((c) => c.readyState === c.OPEN); i++) await shout(100 * 1024);
    proxy.resumeDownstream();
    await waitFor("the lagged frame", async () => (lags.length > 0 ? true : undefined));
    await shout(10);
    run.dispose("the test is done");
    const last = await following;
    assert.equal(lags.length, 1);
    assert.equal(last, run.eventCursor);
    assert.deepEqual(seen, run.events(0));
  });
});
