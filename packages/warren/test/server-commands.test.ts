import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { call, runWithClaims, serverForSuite, waitFor } from "./helpers/server.js";

const live = serverForSuite();

/** A bridge_repair run with engineer-1 remote, claimed, and its first envelope. */
async function engineerRun(body: Record<string, unknown> = {}) {
  const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"], body);
  const lease = leases["engineer-1"]!;
  const agentPath = `/v1/runs/${runId}/agents/engineer-1`;
  const submit = (command: unknown) =>
    call(live.url, "POST", `${agentPath}/commands`, { query: { lease }, body: command });
  const poll = (after: number, wait = 5) =>
    call(live.url, "GET", `${agentPath}/observations`, { query: { lease, after, wait } });
  const first = await poll(-1);
  assert.equal(first.status, 200);
  return { runId, lease, agentPath, submit, poll, envelope: first.json };
}

describe("commands", () => {
  it("accepts one command, replays its receipt as duplicate, and fills in its outcome", async () => {
    const { envelope, submit, poll, agentPath, lease } = await engineerRun();
    assert.equal(envelope.observation_id, "engineer-1#0");
    assert.equal(envelope.reason, "start");
    assert.ok(envelope.deadline_unix > Date.now() / 1000);
    const command = {
      command_id: "c-take",
      observation_id: envelope.observation_id,
      action: "take",
      args: { item: "toolbox-1" },
    };
    const accepted = await submit(command);
    assert.equal(accepted.status, 200);
    assert.deepEqual(accepted.json, {
      command_id: "c-take",
      observation_id: "engineer-1#0",
      status: "accepted",
      detail: "",
      outcome: "pending",
      outcome_reason: "",
    });
    // The next observation comes once the take is adjudicated.
    const next = await poll(envelope.seq);
    assert.equal(next.status, 200);
    assert.ok(next.json.seq > envelope.seq);
    const polled = await call(live.url, "GET", `${agentPath}/commands/c-take`, { query: { lease } });
    assert.equal(polled.status, 200);
    assert.equal(polled.json.status, "accepted");
    assert.equal(polled.json.outcome, "accepted");
    const again = await submit(command);
    assert.equal(again.status, 200);
    assert.deepEqual(again.json, { ...polled.json, status: "duplicate" });
    // Even a different body under an accepted id replays the original receipt.
    const changed = await submit({ ...command, args: { item: "nothing" } });
    assert.equal(changed.json.status, "duplicate");
    assert.equal(changed.json.observation_id, "engineer-1#0");
  });

  it("rejects a string sleep_ms with a teaching detail (not a 400) and frees the id for a corrected payload", async () => {
    const { envelope, submit, agentPath, lease } = await engineerRun();
    const wrong = await submit({
      command_id: "c-1",
      observation_id: envelope.observation_id,
      sleep_ms: "5000",
    });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.json.status, "rejected");
    assert.match(
      wrong.json.detail,
      /sleep_ms must be an integer number of sim milliseconds \(got the string "5000"\)/,
    );
    assert.equal(wrong.json.outcome, "none");
    // A rejected id is not occupied: there is no receipt to poll, and an unchanged retry is judged the same.
    const none = await call(live.url, "GET", `${agentPath}/commands/c-1`, { query: { lease } });
    assert.equal(none.status, 404);
    assert.equal(none.json.error, "unknown_command");
    const same = await submit({
      command_id: "c-1",
      observation_id: envelope.observation_id,
      sleep_ms: "5000",
    });
    assert.equal(same.json.status, "rejected");
    assert.equal(same.json.detail, wrong.json.detail);
    const argType = await submit({
      command_id: "c-1",
      observation_id: envelope.observation_id,
      action: "take",
      args: { item: 7 },
    });
    assert.equal(argType.json.status, "rejected");
    assert.match(argType.json.detail, /args\.item must be a string \(got number 7\)/);
    const actionType = await submit({
      command_id: "c-1",
      observation_id: envelope.observation_id,
      action: 3,
    });
    assert.match(actionType.json.detail, /action must be a string/);
    const corrected = await submit({
      command_id: "c-1",
      observation_id: envelope.observation_id,
      sleep_ms: 5000,
    });
    assert.equal(corrected.json.status, "accepted");
  });

  it("answers stale for an observation already answered, and rejected for one never issued", async () => {
    const { envelope, submit } = await engineerRun();
    await submit({ command_id: "a-1", observation_id: envelope.observation_id, sleep_ms: 1000 });
    const stale = await submit({ command_id: "a-2", observation_id: envelope.observation_id, noop: true });
    assert.equal(stale.status, 200);
    assert.equal(stale.json.status, "stale");
    assert.match(stale.json.detail, /already answered by command a-1/);
    // Closure comes before payload: a malformed answer to the answered observation is stale too.
    const malformed = await submit({
      command_id: "a-3",
      observation_id: envelope.observation_id,
      sleep_ms: "x",
    });
    assert.equal(malformed.json.status, "stale");
    const unknown = await submit({ command_id: "a-4", observation_id: "engineer-1#99", noop: true });
    assert.equal(unknown.json.status, "rejected");
    assert.match(unknown.json.detail, /never issued/);
  });

  it("refuses non-string command_id or observation_id with 422, and non-object bodies too", async () => {
    const { envelope, submit } = await engineerRun();
    for (const body of [
      { command_id: 7, observation_id: envelope.observation_id, noop: true },
      { command_id: "c-1", observation_id: null, noop: true },
      { observation_id: envelope.observation_id, noop: true },
      [1, 2],
      "noop",
    ]) {
      const reply = await submit(body);
      assert.equal(reply.status, 422, JSON.stringify(body));
      assert.equal(reply.json.error, "unprocessable_command");
    }
    // Nothing was recorded: the observation can still be answered.
    const ok = await submit({ command_id: "c-ok", observation_id: envelope.observation_id, noop: true });
    assert.equal(ok.json.status, "accepted");
  });

  it("accepts exactly one of 20 concurrent submissions of one command_id; the rest are duplicates of it", async () => {
    const { envelope, submit } = await engineerRun();
    const command = { command_id: "c-race", observation_id: envelope.observation_id, sleep_ms: 2000 };
    const replies = await Promise.all(Array.from({ length: 20 }, () => submit(command)));
    assert.ok(replies.every((r) => r.status === 200));
    const accepted = replies.filter((r) => r.json.status === "accepted");
    const duplicates = replies.filter((r) => r.json.status === "duplicate");
    assert.equal(accepted.length, 1);
    assert.equal(duplicates.length, 19);
    for (const d of duplicates) {
      assert.equal(d.json.command_id, "c-race");
      assert.equal(d.json.observation_id, envelope.observation_id);
      assert.equal(d.json.detail, accepted[0]!.json.detail);
    }
  });

  it("expires an observation past its deadline: a noop is recorded and the next envelope comes on the next wake", async () => {
    const { envelope, submit, poll, runId } = await engineerRun({ deadline_s: 0.3 });
    assert.ok(envelope.deadline_unix - Date.now() / 1000 <= 0.3);
    // Waiting past the deadline: the engine records a noop and the agent wakes again later. Until
    // then each poll gives the outstanding observation back.
    await waitFor("the next wake", async () => {
      const next = await poll(envelope.seq, 1);
      assert.equal(next.status, 200);
      return next.json.seq > envelope.seq ? true : undefined;
    });
    const late = await submit({ command_id: "late", observation_id: envelope.observation_id, noop: true });
    assert.equal(late.json.status, "expired");
    assert.match(late.json.detail, /decision deadline .* passed; a noop was recorded/);
    // Closure before payload: a malformed late answer is expired, not rejected.
    const malformed = await submit({
      command_id: "late-2",
      observation_id: envelope.observation_id,
      sleep_ms: "x",
    });
    assert.equal(malformed.json.status, "expired");
    const events = live.server.registry.get(runId).run.events(0);
    const id = envelope.observation_id;
    assert.ok(events.some((e) => e.kind === "expired" && e.data.observation_id === id));
    assert.ok(
      events.some((e) => e.kind === "decision" && e.data.observation_id === id && e.data.expired === true),
    );
  });

  it("needs the lease: 401 without, 403 with a wrong one", async () => {
    const { envelope, agentPath } = await engineerRun();
    const command = { command_id: "x", observation_id: envelope.observation_id, noop: true };
    const none = await call(live.url, "POST", `${agentPath}/commands`, { body: command });
    assert.equal(none.status, 401);
    assert.equal(none.json.error, "lease_required");
    const wrong = await call(live.url, "POST", `${agentPath}/commands`, {
      query: { lease: "l-nope" },
      body: command,
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.json.error, "lease_invalid");
    const receipt = await call(live.url, "GET", `${agentPath}/commands/x`, { query: { lease: "l-nope" } });
    assert.equal(receipt.status, 403);
  });

  it("keeps a command_id to the agent that used it first", async () => {
    const { runId, leases } = await runWithClaims(live.url, "bridge_repair", ["engineer-1", "courier-1"]);
    const answer = async (agent: string) => {
      const path = `/v1/runs/${runId}/agents/${agent}`;
      const lease = leases[agent];
      const envelope = await call(live.url, "GET", `${path}/observations`, { query: { lease, wait: 5 } });
      return call(live.url, "POST", `${path}/commands`, {
        query: { lease },
        body: { command_id: "c-shared", observation_id: envelope.json.observation_id, sleep_ms: 1000 },
      });
    };
    assert.equal((await answer("engineer-1")).json.status, "accepted");
    const other = await answer("courier-1");
    assert.equal(other.json.status, "rejected");
    assert.match(other.json.detail, /already used by another agent/);
  });

  it("refuses an empty command_id with 422 saying why, like a non-string one", async () => {
    const { envelope, submit } = await engineerRun();
    const empty = await submit({ command_id: "", observation_id: envelope.observation_id, noop: true });
    assert.equal(empty.status, 422);
    assert.equal(empty.json.error, "unprocessable_command");
    assert.match(empty.json.detail, /command_id must not be empty/);
  });
});

describe("runs that cannot freeze", () => {
  it("ends a run whose client only sends refused actions: each costs sim time, the sim-time limit fails it", async () => {
    // Nobody else acts (no message wakes the engineer), and the limit comes before the resupply deadline.
    const { runId, envelope, submit, poll } = await engineerRun({ max_sim_s: 30, npc_policy: "noop" });
    let current = envelope;
    let commands = 0;
    for (;;) {
      assert.ok(++commands < 100, "a bounded number of refusals ends the run");
      const receipt = await submit({
        command_id: `anvil-${commands}`,
        observation_id: current.observation_id,
        action: "take",
        args: { item: "anvil" },
      });
      assert.equal(receipt.json.status, "accepted");
      const next = await poll(current.seq);
      if (next.status === 410) break;
      assert.equal(next.json.reason, "refused");
      assert.ok(next.json.sim_time_ms > current.sim_time_ms, "a refusal moves sim time");
      current = next.json;
    }
    const view = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
    assert.equal(view.status, "failed");
    assert.match(view.status_reason, /sim-time limit of 30 s passed/);
    assert.equal(view.max_sim_s, 30);
    assert.equal(view.sim_time_ms, 30_000);
  });

  it("fails a run past its wall-time limit with the reason", async () => {
    // No poll after the claim: the run may be over before one comes.
    const { runId } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"], { max_wall_s: 0.2 });
    const view = await waitFor("the wall-time limit", async () => {
      const shown = (await call(live.url, "GET", `/v1/runs/${runId}`)).json;
      return shown.status === "running" ? undefined : shown;
    });
    assert.equal(view.status, "failed");
    assert.equal(view.status_reason, "the run's wall-time limit of 0.2 s passed");
    assert.equal(view.max_wall_s, 0.2);
  });

  it("shows the default limits and refuses limits out of range", async () => {
    const created = await call(live.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      headers: { "content-type": "application/json" },
    });
    assert.equal(created.json.max_wall_s, 3600);
    const scenarios = (await call(live.url, "GET", "/v1/scenarios")).json.scenarios;
    const bridge = scenarios.find((s: { name: string }) => s.name === "bridge_repair");
    assert.equal(created.json.max_sim_s, bridge.time_limit_ms / 1000, "by default the scenario's own limit");
    for (const body of [{ max_wall_s: 0 }, { max_wall_s: 604_801 }, { max_sim_s: -1 }, { max_sim_s: "60" }]) {
      const reply = await call(live.url, "POST", "/v1/runs", { query: { scenario: "bridge_repair" }, body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match(reply.json.detail, /body\/max_(wall|sim)_s must be/);
    }
  });
});
