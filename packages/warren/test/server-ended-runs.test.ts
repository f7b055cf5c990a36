import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headless } from "./helpers/engine-runs.js";
import { call, serverForSuite, startTestServer, waitFor } from "./helpers/server.js";

// Every run here is bridge_repair seed 3 on its solution runners: the same events each time.
const solo = await headless("bridge_repair", 3);
const EVENTS_PER_RUN = solo.event_cursor;
// Two ended runs fit whole, exactly; five are remembered at all.
const small = serverForSuite({ keepEndedRuns: 5, endedRunEvents: 2 * EVENTS_PER_RUN });

async function endedRun(): Promise<string> {
  const created = await call(small.url, "POST", "/v1/runs", {
    query: { scenario: "bridge_repair", seed: 3 },
    headers: { "content-type": "application/json" },
  });
  assert.equal(created.status, 201);
  const runId = created.json.run_id as string;
  await waitFor(`${runId} to end`, async () => {
    const view = await call(small.url, "GET", `/v1/runs/${runId}`);
    return view.json.status === "completed" ? true : undefined;
  });
  return runId;
}

/** Routes an ended run kept whole still answers (with 200, or a plain 401 for want of a lease). */
const RUN_ROUTES = [
  ["GET", "spectate"],
  ["GET", "agents/engineer-1/briefing"],
  ["POST", "agents/engineer-1/commands"],
  ["GET", "agents/engineer-1/commands/c-1"],
  ["POST", "agents/engineer-1/release"],
] as const;

describe("ended runs: their memory is bounded overall", () => {
  it("keeps the latest whole within the event cap, the older as summaries (410), and forgets past the count (404)", async () => {
    const ids: string[] = [];
    ids.push(await endedRun(), await endedRun());
    const { ended } = small.server.registry;
    assert.equal(ended.heldEvents, 2 * EVENTS_PER_RUN, "at the cap, both are whole");
    assert.equal(small.server.registry.get(ids[0]!).run.events(0).length, EVENTS_PER_RUN);
    for (let i = 0; i < 5; i++) ids.push(await endedRun());
    assert.equal(ended.heldEvents, 2 * EVENTS_PER_RUN, "the cap holds however many runs end");
    const [forgotten1, forgotten2, ...remembered] = ids;
    const summaries = remembered.slice(0, 3);
    const whole = remembered.slice(3);

    for (const runId of [forgotten1!, forgotten2!]) {
      const reply = await call(small.url, "GET", `/v1/runs/${runId}`);
      assert.equal(reply.status, 404);
      assert.equal(reply.json.error, "unknown_run");
      assert.equal(
        reply.json.detail,
        `run ${runId} ended long ago and is forgotten: this server remembers its latest 5 ended runs`,
      );
    }
    const never = await call(small.url, "GET", "/v1/runs/run-99");
    assert.equal(never.status, 404);
    assert.match(never.json.detail, /there is no run "run-99"/);

    for (const runId of summaries) {
      const view = await call(small.url, "GET", `/v1/runs/${runId}`);
      assert.equal(view.status, 200);
      assert.equal(view.json.status, "completed");
      assert.equal(view.json.log_hash, solo.log_hash, "the summary keeps the run's hash");
      assert.deepEqual(view.json.scores, solo.scores);
      for (const [method, route] of RUN_ROUTES) {
        const reply = await call(small.url, method, `/v1/runs/${runId}/${route}`);
        assert.equal(reply.status, 410, `${method} ${route}`);
        assert.equal(reply.json.error, "run_ended");
        assert.equal(reply.json.status, "completed");
        assert.match(
          reply.json.detail,
          new RegExp(
            `^run ${runId} has ended: completed \\(every objective is met\\); only its summary is kept now \\(GET /v1/runs/${runId}\\)`,
          ),
        );
        assert.match(
          reply.json.detail,
          new RegExp(`up to ${2 * EVENTS_PER_RUN} events and \\d+ bytes in all`),
        );
      }
    }

    for (const runId of whole) {
      assert.equal(small.server.registry.get(runId).run.events(0).length, EVENTS_PER_RUN);
      const briefing = await call(small.url, "GET", `/v1/runs/${runId}/agents/engineer-1/briefing`);
      assert.equal(briefing.status, 401, "a whole run's routes still answer as before");
    }

    const listed = await call(small.url, "GET", "/v1/runs");
    assert.deepEqual(
      listed.json.runs.map((r: { run_id: string }) => r.run_id),
      remembered,
      "the list shows what is remembered, oldest first",
    );
  });

  it("keeps the latest ended run whole even when it alone passes the cap", async () => {
    const tiny = await startTestServer({ endedRunEvents: EVENTS_PER_RUN - 1 });
    try {
      const create = async (): Promise<string> => {
        const created = await call(tiny.url, "POST", "/v1/runs", {
          query: { scenario: "bridge_repair", seed: 3 },
          headers: { "content-type": "application/json" },
        });
        await tiny.registry.get(created.json.run_id).run.whenEnded();
        return created.json.run_id;
      };
      const first = await create();
      assert.equal(tiny.registry.get(first).run.status, "completed", "the latest stays whole");
      await create();
      assert.throws(() => tiny.registry.get(first), { statusCode: 410 });
      assert.equal(tiny.registry.view(first).status, "completed");
    } finally {
      await tiny.close();
    }
  });
});
