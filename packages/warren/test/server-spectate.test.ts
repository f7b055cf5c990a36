import assert from "node:assert/strict";
import type { Socket } from "node:net";
import { describe, it } from "node:test";
import { WebSocket } from "ws";
import type { RunEvent } from "../src/engine/index.js";
import { RunEndedEvent, SpectatorFrame, schemaProblems } from "../src/protocol/index.js";
import { catalogWithLoudYard, shout } from "./helpers/loud-yard.js";
import { call, runWithClaims, serverForSuite, waitFor } from "./helpers/server.js";

const LAG_BYTES = 64 * 1024;
const live = serverForSuite({ spectatorMaxBufferedBytes: LAG_BYTES, scenarios: catalogWithLoudYard });
const forgetful = serverForSuite({ retainedEvents: 40 });

interface Watcher {
  socket: WebSocket;
  frames: (RunEvent | { kind: "lagged"; cursor: number })[];
  headers: Promise<Record<string, string | string[] | undefined>>;
  closed: Promise<{ code: number; reason: string }>;
}

function watch(runId: string, since: number, base = live.url): Watcher {
  const socket = new WebSocket(`${base.replace("http", "ws")}/v1/runs/${runId}/spectate?since=${since}`);
  const frames: Watcher["frames"] = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data));
    assert.equal(schemaProblems(SpectatorFrame, frame), undefined, "every frame matches its declaration");
    frames.push(frame);
  });
  const headers = new Promise<Record<string, string | string[] | undefined>>((resolve) =>
    socket.once("upgrade", (response) => resolve(response.headers)),
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { socket, frames, headers, closed };
}

/** The HTTP status of a refused upgrade. */
function refusal(socket: WebSocket): Promise<number> {
  return new Promise((resolve) =>
    socket.once("unexpected-response", (request, response) => {
      request.destroy();
      resolve(response.statusCode ?? 0);
    }),
  );
}

function assertContiguous(events: { cursor: number }[], from: number): void {
  events.forEach((e, i) => {
    assert.equal(e.cursor, from + i, `event ${i} has cursor ${e.cursor}`);
  });
}

describe("spectator stream", () => {
  it("streams every event of a run with its cursor, then the terminal status, and closes 1000", async () => {
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair", seed: 3 },
      body: {},
    });
    const runId = created.json.run_id;
    const run = live.server.registry.get(runId).run;
    await run.whenEnded();
    const watcher = watch(runId, 0);
    assert.equal((await watcher.headers)["x-warren-protocol"], "warren-agent/0");
    const closed = await watcher.closed;
    assert.equal(closed.code, 1000);
    assertContiguous(watcher.frames, 1);
    assert.deepEqual(watcher.frames, run.events(0));
    const last = watcher.frames.at(-1) as RunEvent;
    assert.equal(last.kind, "status");
    assert.equal(last.data.status, "completed");
    assert.equal(
      schemaProblems(RunEndedEvent, last),
      undefined,
      "the final frame is declared, scores and all",
    );
    assert.deepEqual(last.data.scores, run.summary().scores, "the final frame carries the scores");
    assert.equal((last.data.scores as { time_ratio: number }).time_ratio, 1);
    // Resuming from a cursor gives exactly what came after it.
    const resumed = watch(runId, 40);
    await resumed.closed;
    assert.deepEqual(resumed.frames, run.events(40));
  });

  it("lags a slow reader (lagged frame, close 1013); it resumes with since and loses nothing", async () => {
    const { runId, leases } = await runWithClaims(live.url, "loud_yard", ["shouter-1"]);
    const lease = leases["shouter-1"]!;
    const run = live.server.registry.get(runId).run;
    const first = watch(runId, 0);
    await waitFor("the first frames", async () => (first.frames.length > 0 ? true : undefined));
    // The reader stops reading; the run goes on producing large events (loud shouts).
    (first.socket as unknown as { _socket: Socket })._socket.pause();
    // Loopback buffers hold megabytes, so the events are large.
    const serverSide = [...live.server.app.websocketServer.clients];
    const lagging = () => serverSide.some((client) => client.readyState !== WebSocket.OPEN);
    for (let i = 0; i < 200 && !lagging(); i++) await shout(live.url, runId, lease, 100 * 1024);
    assert.ok(lagging(), "the server gave up on the paused reader");
    // Events keep coming while it is away.
    for (let i = 0; i < 5; i++) await shout(live.url, runId, lease, 10);
    const produced = run.eventCursor;
    (first.socket as unknown as { _socket: Socket })._socket.resume();
    const closed = await first.closed;
    assert.equal(closed.code, 1013);
    const lagged = first.frames.at(-1)!;
    assert.equal(lagged.kind, "lagged");
    const events = first.frames.slice(0, -1) as RunEvent[];
    assertContiguous(events, 1);
    assert.equal(lagged.cursor, events.at(-1)!.cursor);
    assert.ok(lagged.cursor <= produced - 5, "events came after the lag");
    // Resume, let the run end, and the two connections together saw every event once.
    const second = watch(runId, lagged.cursor);
    await waitFor("the resumed stream to catch up", async () =>
      second.frames.at(-1) && (second.frames.at(-1) as RunEvent).cursor >= produced ? true : undefined,
    );
    run.dispose("the test is done");
    assert.equal((await second.closed).code, 1000);
    assert.deepEqual([...events, ...second.frames], run.events(0));
  });

  it("answers a resume from before the kept events with a lagged frame; resuming from it continues after the gap", async () => {
    const created = await call(forgetful.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair", seed: 3 },
      body: {},
    });
    const run = forgetful.server.registry.get(created.json.run_id).run;
    await run.whenEnded();
    const kept = run.oldestRetainedEvent;
    assert.ok(kept > 1 && run.eventCursor - kept < 40, "only the latest events are kept");
    const tooOld = watch(created.json.run_id, 0, forgetful.url);
    assert.equal((await tooOld.closed).code, 1013);
    assert.equal(tooOld.frames.length, 1);
    const lagged = tooOld.frames[0] as { kind: string; cursor: number; detail: string };
    assert.equal(lagged.kind, "lagged");
    assert.equal(lagged.cursor, kept - 1);
    assert.match(lagged.detail, /no longer kept/);
    const resumed = watch(created.json.run_id, lagged.cursor, forgetful.url);
    assert.equal((await resumed.closed).code, 1000);
    assert.deepEqual(resumed.frames, run.events(lagged.cursor));
    assert.equal((resumed.frames[0] as RunEvent).cursor, kept);
  });

  it("shows a refused action as one frame: the command, why, when the agent wakes again, and its receipt", async () => {
    const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"], {
      npc_policy: "noop",
    });
    const agent = `/v1/runs/${runId}/agents/engineer-1`;
    const lease = leases["engineer-1"]!;
    const envelope = (await call(live.url, "GET", `${agent}/observations`, { query: { lease, wait: 5 } }))
      .json;
    const watcher = watch(runId, 0);
    await watcher.headers;
    const command = { command_id: "anvil", observation_id: envelope.observation_id, action: "take" };
    const receipt = (
      await call(live.url, "POST", `${agent}/commands`, {
        query: { lease },
        body: { ...command, args: { item: "anvil" } },
      })
    ).json;
    assert.equal(receipt.status, "accepted");
    const next = (await call(live.url, "GET", `${agent}/observations`, { query: { lease, wait: 5 } })).json;
    assert.equal(next.reason, "refused");
    const own = () =>
      watcher.frames.filter((f): f is RunEvent => "data" in f && f.data.agent === "engineer-1");
    await waitFor("the refusal's frame", async () =>
      own().some((f) => f.kind === "decision") ? true : undefined,
    );
    const [wake, refusal, ...more] = own();
    assert.equal(wake!.kind, "wake");
    assert.deepEqual(more, [], "nothing else of the engineer's: no verdict, no wake of its own");
    assert.equal(refusal!.kind, "decision");
    assert.equal(refusal!.data.refused, next.observation.outcomes[0].reason);
    assert.equal(refusal!.data.wakes_at_ms, next.sim_time_ms);
    assert.deepEqual(refusal!.receipt, {
      ...receipt,
      outcome: "rejected",
      outcome_reason: refusal!.data.refused,
    });
    watcher.socket.close();
    await watcher.closed;
    live.server.registry.get(runId).run.dispose("the test is done");
  });

  it("answers an unknown run with 404, a bad since with 400, another protocol with 409 and a plain GET with 426", async () => {
    const unknown = watch("run-404", 0);
    const refused = await refusal(unknown.socket);
    assert.equal(refused, 404);
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: {},
    });
    const badSince = new WebSocket(
      `${live.url.replace("http", "ws")}/v1/runs/${created.json.run_id}/spectate?since=x`,
    );
    const status = await refusal(badSince);
    assert.equal(status, 400);
    const otherVersion = new WebSocket(
      `${live.url.replace("http", "ws")}/v1/runs/${created.json.run_id}/spectate`,
      {
        headers: { "x-warren-protocol": "warren-agent/9" },
      },
    );
    const versionStatus = await refusal(otherVersion);
    assert.equal(versionStatus, 409);
    const plain = await call(live.url, "GET", `/v1/runs/${created.json.run_id}/spectate`);
    assert.equal(plain.status, 426);
    assert.equal(plain.json.error, "upgrade_required");
  });
});
