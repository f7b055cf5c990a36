import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ListeningServer } from "../src/server/index.js";
import { call, engineerAwaitingCourier, runWithClaims, startTestServer } from "./helpers/server.js";

// Short, to see expiry in a test, yet long enough for a loaded machine's round trips within it.
const TTL_S = 2;
let server: ListeningServer;
let shortLived: ListeningServer;
let base: string;
before(async () => {
  server = await startTestServer();
  shortLived = await startTestServer({ leaseTtlS: TTL_S });
  base = server.url;
});
after(async () => {
  await server.close();
  await shortLived.close();
});

async function engineerRun(at = base): Promise<string> {
  const created = await call(at, "POST", "/v1/runs", {
    query: { scenario: "bridge_repair", seed: 3 },
    body: { controlled_agents: ["engineer-1"], npc_policy: "solution", pace: null },
  });
  return `/v1/runs/${created.json.run_id}/agents/engineer-1`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("leases", () => {
  it("grants a lease, refuses a second claimant with 409, and resumes the holder with its token", async () => {
    const agent = await engineerRun();
    const first = await call(base, "POST", `${agent}/claim`, { query: { holder: "alice" } });
    assert.equal(first.status, 200);
    assert.equal(first.json.resumed, false);
    assert.equal(first.json.briefing_revision, 1);
    assert.equal(first.json.lease_ttl_s, 300);
    const rival = await call(base, "POST", `${agent}/claim`);
    assert.equal(rival.status, 409);
    assert.equal(rival.json.error, "agent_leased");
    assert.match(rival.json.detail, /leased by alice/);
    const wrong = await call(base, "POST", `${agent}/claim`, { query: { lease: "l-guess" } });
    assert.equal(wrong.status, 409);
    // The holder reconnects with its token: same lease, and the outstanding envelope again.
    const envelope = await call(base, "GET", `${agent}/observations`, {
      query: { lease: first.json.lease, after: -1, wait: 5 },
    });
    assert.equal(envelope.status, 200);
    const resumed = await call(base, "POST", `${agent}/claim`, { query: { lease: first.json.lease } });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.json.lease, first.json.lease);
    assert.equal(resumed.json.resumed, true);
    assert.equal(resumed.json.outstanding_observation_id, envelope.json.observation_id);
    const redelivered = await call(base, "GET", `${agent}/observations`, {
      query: { lease: first.json.lease, after: -1 },
    });
    assert.deepEqual(redelivered.json, envelope.json);
    // Whatever `after` says, the outstanding envelope comes back (at-least-once).
    const past = await call(base, "GET", `${agent}/observations`, {
      query: { lease: first.json.lease, after: envelope.json.seq + 5 },
    });
    assert.deepEqual(past.json, envelope.json);
  });

  it("answers a poll 204 when nothing is outstanding and nothing comes within wait", async () => {
    const { agent, lease, envelope } = await engineerAwaitingCourier(base);
    const nothing = await call(base, "GET", `${agent}/observations`, {
      query: { lease, after: envelope.seq, wait: 0.05 },
    });
    assert.equal(nothing.status, 204);
  });

  it("takes the lease from Authorization: Bearer too", async () => {
    const agent = await engineerRun();
    const claim = await call(base, "POST", `${agent}/claim`);
    const briefing = await call(base, "GET", `${agent}/briefing`, {
      headers: { authorization: `Bearer ${claim.json.lease}` },
    });
    assert.equal(briefing.status, 200);
    assert.equal(briefing.json.agent_id, "engineer-1");
    assert.equal(briefing.json.revision, 1);
    assert.match(briefing.json.content_hash, /^sha256:/);
    // Cached by revision: the ETag is the content hash.
    assert.equal(briefing.headers.get("etag"), `"${briefing.json.content_hash}"`);
    const cached = await call(base, "GET", `${agent}/briefing`, {
      query: { lease: claim.json.lease },
      headers: { "if-none-match": `"${briefing.json.content_hash}"` },
    });
    assert.equal(cached.status, 304);
    const bad = await call(base, "GET", `${agent}/briefing`, {
      headers: { authorization: "Bearer l-other" },
    });
    assert.equal(bad.status, 403);
    const none = await call(base, "GET", `${agent}/briefing`);
    assert.equal(none.status, 401);
    assert.equal(none.json.error, "lease_required");
  });

  it("is kept alive by requests, expires without them, and is reclaimable with a fresh token", async () => {
    const at = shortLived.url;
    const { agent, lease, envelope } = await engineerAwaitingCourier(at);
    // Requests every half TTL keep it for well past one TTL.
    for (let i = 0; i < 3; i++) {
      await sleep((TTL_S * 1000) / 2);
      assert.equal((await call(at, "GET", `${agent}/briefing`, { query: { lease } })).status, 200);
    }
    // A long poll longer than the TTL does not lose it either.
    const longPoll = await call(at, "GET", `${agent}/observations`, {
      query: { lease, after: envelope.seq, wait: TTL_S * 2 },
    });
    assert.equal(longPoll.status, 204);
    assert.equal((await call(at, "GET", `${agent}/briefing`, { query: { lease } })).status, 200);
    // Then silence past the TTL (any request would refresh it, so this one waits without asking).
    await sleep(TTL_S * 1000 * 1.5);
    const expired = await call(at, "GET", `${agent}/briefing`, { query: { lease } });
    assert.equal(expired.status, 403);
    assert.equal(expired.json.error, "lease_expired");
    const view = await call(at, "GET", agent.replace(/\/agents\/.*$/, ""));
    assert.equal(
      view.json.agents.find((a: { agent_id: string }) => a.agent_id === "engineer-1").leased,
      false,
    );
    const reclaim = await call(at, "POST", `${agent}/claim`, { query: { lease } });
    assert.equal(reclaim.status, 200);
    assert.equal(reclaim.json.resumed, false);
    assert.notEqual(reclaim.json.lease, lease);
    const old = await call(at, "GET", `${agent}/observations`, { query: { lease } });
    assert.equal(old.status, 403);
  });

  it("is not held alive by a long poll the client abandoned", async () => {
    const at = shortLived.url;
    const { agent, lease, envelope } = await engineerAwaitingCourier(at);
    const hangUp = new AbortController();
    const url = `${at}${agent}/observations?lease=${lease}&after=${envelope.seq}&wait=25`;
    const abandoned = fetch(url, { signal: hangUp.signal }).catch((error: Error) => error.name);
    await sleep(50);
    hangUp.abort();
    assert.equal(await abandoned, "AbortError");
    await sleep(TTL_S * 1000 * 1.5);
    const after = await call(at, "GET", `${agent}/briefing`, { query: { lease } });
    assert.equal(after.status, 403);
    assert.equal(after.json.error, "lease_expired");
  });

  it("is freed at once by release", async () => {
    const agent = await engineerRun();
    const claim = await call(base, "POST", `${agent}/claim`);
    const noLease = await call(base, "POST", `${agent}/release`);
    assert.equal(noLease.status, 401);
    const wrong = await call(base, "POST", `${agent}/release`, { query: { lease: "l-x" } });
    assert.equal(wrong.status, 403);
    const released = await call(base, "POST", `${agent}/release`, { query: { lease: claim.json.lease } });
    assert.equal(released.status, 200);
    assert.equal(released.json.released, true);
    const after = await call(base, "GET", `${agent}/briefing`, { query: { lease: claim.json.lease } });
    assert.equal(after.status, 403);
    assert.equal(after.json.error, "lease_invalid");
    const next = await call(base, "POST", `${agent}/claim`);
    assert.equal(next.status, 200);
    assert.notEqual(next.json.lease, claim.json.lease);
  });

  it("does not hand an observation to a lease released while its poll waited: the next holder gets it", async () => {
    const { runId, leases } = await runWithClaims(base, "bridge_repair", ["engineer-1", "courier-1"]);
    const engineer = `/v1/runs/${runId}/agents/engineer-1`;
    const courier = `/v1/runs/${runId}/agents/courier-1`;
    const lease = leases["engineer-1"]!;
    const first = (await call(base, "GET", `${engineer}/observations`, { query: { lease, wait: 5 } })).json;
    await call(base, "POST", `${engineer}/commands`, {
      query: { lease },
      body: { command_id: "first", observation_id: first.observation_id, sleep_ms: 1000 },
    });
    // Nothing outstanding for the engineer until the courier answers too: the poll waits.
    const polling = call(base, "GET", `${engineer}/observations`, {
      query: { lease, after: first.seq, wait: 25 },
    });
    await sleep(200);
    await call(base, "POST", `${engineer}/release`, { query: { lease } });
    const successor = (await call(base, "POST", `${engineer}/claim`, { query: { holder: "bob" } })).json
      .lease;
    // The courier answers whatever it is shown (the lookout's message wakes it again at 0 s).
    for (let seq = -1; ; ) {
      const seen = await call(base, "GET", `${courier}/observations`, {
        query: { lease: leases["courier-1"], after: seq, wait: 0.5 },
      });
      if (seen.status === 204) break;
      seq = seen.json.seq;
      await call(base, "POST", `${courier}/commands`, {
        query: { lease: leases["courier-1"] },
        body: { command_id: `c-${seq}`, observation_id: seen.json.observation_id, sleep_ms: 5000 },
      });
    }
    const answered = await polling;
    assert.equal(answered.status, 403);
    assert.equal(answered.json.error, "lease_invalid");
    const next = await call(base, "GET", `${engineer}/observations`, {
      query: { lease: successor, after: first.seq, wait: 5 },
    });
    assert.equal(next.status, 200);
    assert.ok(next.json.seq > first.seq, "the engineer's next observation is bob's");
  });

  it("is only for remote agents: claiming a solution-played agent is 409 not_remote", async () => {
    const agent = await engineerRun();
    const reply = await call(base, "POST", agent.replace("engineer-1", "courier-1") + "/claim");
    assert.equal(reply.status, 409);
    assert.equal(reply.json.error, "not_remote");
  });

  it("refuses a bad after or wait with 400 and caps a long wait at 30 s", async () => {
    const agent = await engineerRun();
    const claim = await call(base, "POST", `${agent}/claim`);
    for (const query of [{ after: -2 }, { after: "x" }, { wait: -1 }, { wait: "soon" }]) {
      const reply = await call(base, "GET", `${agent}/observations`, {
        query: { lease: claim.json.lease, ...query },
      });
      assert.equal(reply.status, 400, JSON.stringify(query));
      assert.equal(reply.json.error, "bad_request");
    }
    // A wait far past the cap is accepted (capped), and answers as soon as the envelope is there.
    const reply = await call(base, "GET", `${agent}/observations`, {
      query: { lease: claim.json.lease, wait: 3600 },
    });
    assert.equal(reply.status, 200);
  });
});
