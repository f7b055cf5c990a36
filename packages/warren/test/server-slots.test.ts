import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../src/engine/index.js";
import { call, engineerAwaitingCourier, serverForSuite, waitFor } from "./helpers/server.js";
import { runWarren } from "./helpers/warren-process.js";

const LIVE = 100;
// The squatters' claim time passes when the test says: a burst on a loaded machine takes seconds.
const clock = new ManualClock();
const squatted = serverForSuite({ maxLiveRuns: LIVE, maxRunsPerClient: 2 * LIVE, clock });
const perClient = serverForSuite({ maxRunsPerClient: 3 });

/** A bridge_repair run waiting for engineer-1, which nobody claims. */
function squat(base: string, body: Record<string, unknown> = {}) {
  return call(base, "POST", "/v1/runs", {
    query: { scenario: "bridge_repair" },
    body: { controlled_agents: ["engineer-1"], ...body },
  });
}

const liveCount = async (base: string): Promise<number> =>
  (await call(base, "GET", "/v1/runs")).json.runs.filter((r: { status: string }) =>
    ["created", "running"].includes(r.status),
  ).length;

describe("run slots", () => {
  it("gives the slots of 200 squatting creations back once their claim time passes", async () => {
    const claimWithin = 90;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => squat(squatted.url, { claim_within_s: claimWithin })),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    assert.equal(created.length, LIVE);
    assert.ok(refused.every((a) => a.status === 503 && a.json.error === "too_many_runs"));
    assert.ok(created.every((a) => a.json.claim_within_s === claimWithin));
    clock.advance(claimWithin * 1000 - 1);
    const stillFull = await squat(squatted.url);
    assert.equal(stillFull.status, 503, "every slot is held until the claim time passes");
    assert.equal(await liveCount(squatted.url), LIVE);
    clock.advance(1);
    assert.equal(await liveCount(squatted.url), 0, "every squatted slot is free once its claim time passed");
    const one = (await call(squatted.url, "GET", `/v1/runs/${created[0]!.json.run_id}`)).json;
    assert.equal(one.status, "abandoned");
    assert.equal(one.status_reason, "no one claimed engineer-1 within 90 s of the run's creation");
    const again = await squat(squatted.url);
    assert.equal(again.status, 201, "a slot is free again");
    await call(squatted.url, "DELETE", `/v1/runs/${again.json.run_id}`, {
      headers: { "content-type": "application/json" },
    });
  });

  it("abandons on the real clock, keeps a claimed run past its claim time, and bounds claim_within_s", async () => {
    const run = await squat(perClient.url, { claim_within_s: 0.5 });
    const claim = await call(perClient.url, "POST", `/v1/runs/${run.json.run_id}/agents/engineer-1/claim`);
    assert.equal(claim.status, 200);
    const witness = await squat(perClient.url, { claim_within_s: 0.5 });
    await waitFor("the unclaimed witness to be abandoned", async () => {
      const view = (await call(perClient.url, "GET", `/v1/runs/${witness.json.run_id}`)).json;
      return view.status === "abandoned" ? true : undefined;
    });
    const view = (await call(perClient.url, "GET", `/v1/runs/${run.json.run_id}`)).json;
    assert.equal(view.status, "running", "a started run is never abandoned");
    const tooLong = await squat(perClient.url, { claim_within_s: 3601 });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.json.detail, /claim_within_s must be <= 3600/);
    await call(perClient.url, "DELETE", `/v1/runs/${run.json.run_id}`, {
      headers: { "content-type": "application/json" },
    });
  });

  it("frees a slot at once on DELETE, ending a live run as deleted for its players", async () => {
    // engineer-1 has answered and waits on the silent courier: its long poll waits.
    const { runId: victim, agent, lease, envelope } = await engineerAwaitingCourier(perClient.url);
    const others = [(await squat(perClient.url)).json, (await squat(perClient.url)).json];
    const full = await squat(perClient.url);
    assert.equal(full.status, 429);
    assert.equal(full.json.error, "too_many_client_runs");
    assert.match(full.json.detail, /already has 3 runs that have not ended \(at most 3 a client\)/);
    // A long poll waiting beside the deletion is answered by it.
    const waiting = call(perClient.url, "GET", `${agent}/observations`, {
      query: { lease, after: envelope.seq, wait: 20 },
    });
    const noType = await call(perClient.url, "DELETE", `/v1/runs/${victim}`);
    assert.equal(noType.status, 415, "deletion needs Content-Type: application/json");
    const deleted = await call(perClient.url, "DELETE", `/v1/runs/${victim}`, {
      headers: { "content-type": "application/json" },
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.json.status, "deleted");
    assert.equal(deleted.json.status_reason, `deleted by DELETE /v1/runs/${victim}`);
    const answered = await waiting;
    assert.equal(answered.status, 410);
    assert.equal(answered.json.status, "deleted");
    const now = await squat(perClient.url);
    assert.equal(now.status, 201, "the client's slot is free at once");
    const shown = await call(perClient.url, "GET", `/v1/runs/${victim}`);
    assert.equal(shown.json.status, "deleted", "its summary stays");
    const claimAfter = await call(perClient.url, "POST", `${agent}/claim`);
    assert.equal(claimAfter.status, 410);
    assert.match(claimAfter.json.detail, /was deleted/);
    const twice = await call(perClient.url, "DELETE", `/v1/runs/${victim}`, {
      headers: { "content-type": "application/json" },
    });
    assert.equal(twice.status, 200, "deleting again answers the same summary");
    for (const run of [...others, now.json]) {
      await call(perClient.url, "DELETE", `/v1/runs/${run.run_id}`, {
        headers: { "content-type": "application/json" },
      });
    }
    const unknown = await call(perClient.url, "DELETE", "/v1/runs/run-999", {
      headers: { "content-type": "application/json" },
    });
    assert.equal(unknown.status, 404);
  });

  it("deletes runs from the command line: warren runs rm", async () => {
    const run = (await squat(perClient.url)).json;
    const removed = await runWarren(["runs", "rm", run.run_id, "--server", perClient.url]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, new RegExp(`^${run.run_id}  deleted  deleted by DELETE`));
    const listed = await runWarren(["runs", "ls", "--server", perClient.url]);
    assert.match(listed.stdout, new RegExp(`${run.run_id}  deleted  bridge_repair seed 0`));
    const missing = await runWarren(["runs", "rm", "run-999", "--server", perClient.url]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /warren runs: .*404 unknown_run/);
  });
});
