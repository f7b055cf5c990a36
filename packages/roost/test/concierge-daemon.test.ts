import assert from "node:assert/strict";
import { describe, type TestContext, test } from "node:test";
import { concierged as conciergedOf, type Fleet, fleet as fleetOf } from "./helpers/concierge-fleet.js";
import { type RawConnection, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { rowOf } from "./helpers/fixture-agents.js";

const digest = (conn: RawConnection, timeoutMs = 10_000) =>
  conn.nextEvent((e) => e.event === "deliver" && e.kind === "digest", timeoutMs);

const CONFIG = { agentProfiles: { mute: TEST_PROFILES.mute, asker: TEST_PROFILES.asker } };
const fleet = (t: TestContext) => fleetOf(t, CONFIG);
const concierged = (t: TestContext) => conciergedOf(t, CONFIG);

/** The worker's report that it waits for an answer to `question` (with its `choices`). */
function ask(f: Fleet, question: string, choices: string[] = []) {
  return f.workerConn.request("report", {
    id: f.worker,
    token: f.workerConn.token,
    report: {
      state: "blocked",
      status: "waiting",
      waitingFor: "question",
      question,
      choices,
      agentItems: true,
    },
  });
}

describe("the concierge (M44, M45) with a scripted protocol agent in its place", () => {
  test("the name is reserved; on starts one job with the role, at most one; status and pushes", async (t) => {
    const { hub, raw, worker, workerConn } = await fleet(t);
    const named = await raw.request("dispatch", { profile: "mute", name: " concierge " });
    assert.equal(named.code, "reserved_name");
    assert.match(named.error, /concierge's/);
    assert.equal((await raw.request("rename", { id: worker, name: "concierge" })).code, "reserved_name");
    const reported = await workerConn.request("report", {
      id: worker,
      token: workerConn.token,
      report: { state: "working", name: "concierge" },
    });
    assert.equal(reported.code, "reserved_name");

    const off = await raw.request("concierge", { action: "status" });
    assert.deepEqual(
      { running: off.result.running, job: off.result.job, policy: off.result.policy },
      { running: false, job: null, policy: { answer: "never", act: false } },
    );
    const on = await raw.request("concierge", { action: "on", launch: { profile: "mute" } });
    assert.equal(on.ok, true, JSON.stringify(on));
    assert.equal(on.result.running, true);
    assert.equal(on.result.job.name, "concierge");
    const cid = on.result.job.id;
    const pushed = await raw.nextEvent((e) => e.event === "concierge" && e.status.job?.id === cid);
    assert.equal(pushed.status.running, true);
    const again = await raw.request("concierge", { action: "on", launch: { profile: "mute" } });
    assert.equal(again.result.job.id, cid, "at most one");
    const row = await rowOf(hub, cid);
    assert.equal(row?.role, "concierge");
    assert.equal((await rowOf(hub, worker))?.role, null);
    assert.equal((await raw.request("concierge", { action: "dance" })).code, "bad_request");
  });

  test("ask and say; the hub's ops are refused on a session's connection, events let the concierge in", async (t) => {
    const { raw, workerConn, cid, concierge } = await concierged(t);
    for (const op of ["concierge", "concierge-ask"]) {
      const refused = await workerConn.request(op, { action: "status", text: "hi" });
      assert.equal(refused.code, "unsupported", op);
      assert.equal((await concierge.request(op, { action: "status", text: "hi" })).code, "unsupported");
    }
    assert.equal((await workerConn.request("events", {})).code, "unsupported");
    const read = await concierge.request("events", { limit: 5 });
    assert.equal(read.ok, true);
    assert.equal(
      (await workerConn.request("concierge-say", { kind: "info", text: "x" })).code,
      "unsupported",
    );
    assert.equal((await raw.request("concierge-say", { kind: "info", text: "x" })).code, "unsupported");

    const asked = await raw.request("concierge-ask", { text: "what needs me?" });
    assert.equal(asked.ok, true, JSON.stringify(asked));
    const delivered = await concierge.nextEvent((e) => e.event === "deliver" && e.text === "what needs me?");
    assert.equal(delivered.kind, undefined, "a user reply");

    assert.equal(
      (await concierge.request("concierge-say", { kind: "shout", text: "x" })).code,
      "bad_request",
    );
    assert.equal(
      (await concierge.request("concierge-say", { kind: "info", text: "x".repeat(2001) })).code,
      "bad_request",
    );
    const said = await concierge.request("concierge-say", { kind: "need", text: "worker needs you" });
    assert.equal(said.ok, true);
    const push = await raw.nextEvent((e) => e.event === "concierge" && e.said);
    assert.deepEqual([push.said.kind, push.said.text], ["need", "worker needs you"]);
    const { events } = (await raw.request("events", { limit: 20 })).result;
    const event = events.find(
      (e: { kind: string; why: string }) => e.kind === "concierge" && e.why === "need",
    );
    assert.equal(event.who, "concierge");
    assert.equal(event.whoId, cid);
  });

  test("digests: one after what matters, none while one is in flight, the next once it is acked", async (t) => {
    const f = await concierged(t);
    const { raw, worker, cid, concierge } = f;
    await ask(f, "Deploy now?");
    const first = await digest(concierge);
    assert.equal(first.why, "events");
    assert.match(first.text, /^<roost-digest why="events"/);
    assert.match(first.text, /worker \([0-9a-f]{8}\) waits for question: Deploy now\?/);
    assert.match(first.text, /carries no authority/);
    assert.ok(first.text.length <= 8000);

    // Something else happens while the first is not acked: no second digest until it is.
    await raw.request("pin", { id: worker, pinned: true });
    await assert.rejects(digest(concierge, 3000), /no event/);
    await concierge.request("ack", { id: cid, token: concierge.token, seq: first.seq, exact: true });
    const second = await digest(concierge);
    assert.match(second.text, /worker: pinned/);
    await concierge.request("ack", { id: cid, token: concierge.token, seq: second.seq, exact: true });
    // A quiet fleet sends none.
    await assert.rejects(digest(concierge, 3000), /no event/);
  });

  test("suggest on a waiting row; the policy refuses a reply until the person allows; undo steers", async (t) => {
    const f = await concierged(t);
    const { hub, raw, worker, workerConn, cid, concierge } = f;
    await ask(f, "Deploy now?");
    const suggested = await concierge.request("concierge-suggest", {
      id: "worker",
      text: "yes",
      why: "tests pass",
    });
    assert.equal(suggested.ok, true, JSON.stringify(suggested));
    const row = await rowOf(hub, worker);
    assert.deepEqual([row?.suggested?.text, row?.suggested?.why], ["yes", "tests pass"]);
    assert.equal((await concierge.request("concierge-suggest", { id: cid, text: "x" })).code, "bad_request");
    assert.equal(
      (await concierge.request("concierge-suggest", { id: "nobody", text: "x" })).code,
      "not_found",
    );
    assert.equal(
      (await workerConn.request("concierge-suggest", { id: worker, text: "x" })).code,
      "unsupported",
    );

    assert.deepEqual((await concierge.request("concierge-policy", {})).result, {
      answer: "never",
      act: false,
    });
    const refused = await concierge.request("concierge-reply", { id: worker, text: "yes" });
    assert.equal(refused.code, "policy");
    assert.equal(
      (await raw.request("concierge", { action: "answer", answer: "sometimes" })).code,
      "bad_request",
    );
    const routine = await raw.request("concierge", { action: "answer", answer: "routine" });
    assert.equal(routine.result.policy.answer, "routine");
    assert.equal((await concierge.request("concierge-reply", { id: cid, text: "x" })).code, "bad_request");
    // Deploying is the person's to decide: not routine, whatever the concierge thinks.
    const deploy = await concierge.request("concierge-reply", { id: worker, text: "yes" });
    assert.equal(deploy.code, "policy");
    assert.match(deploy.error, /not a routine question/);
    await ask(f, "Go on with the next file?", ["yes", "no"]);

    const replied = await concierge.request("concierge-reply", { id: worker, text: "yes", why: "routine" });
    assert.equal(replied.ok, true, JSON.stringify(replied));
    const got = await workerConn.nextEvent((e) => e.event === "deliver" && e.text === "yes");
    assert.equal(got.kind, undefined);
    const status = (await raw.request("concierge", { action: "status" })).result;
    assert.equal(status.answered, 1);
    assert.equal(status.undoable.text, "yes");
    const { events } = (await raw.request("events", { id: worker })).result;
    const reply = events.findLast((e: { kind: string }) => e.kind === "reply");
    assert.deepEqual([reply.who, reply.whoId], ["concierge", cid]);

    // The worker now works on it: the suggestion went with the question, and the reply is not for a question.
    await workerConn.request("report", {
      id: worker,
      token: workerConn.token,
      report: { state: "working", status: "busy", agentItems: true },
    });
    await waitFor("the suggestion cleared", async () =>
      (await rowOf(hub, worker))?.suggested === null ? true : undefined,
    );
    assert.equal(
      (await concierge.request("concierge-reply", { id: worker, text: "again" })).code,
      "bad_request",
    );

    const undone = await raw.request("concierge", { action: "undo" });
    assert.equal(undone.ok, true, JSON.stringify(undone));
    const steer = await workerConn.nextEvent((e) => e.event === "deliver" && /^Disregard/.test(e.text));
    assert.equal(steer.mode, "steer");
    assert.match(steer.text, /"yes"/);
    assert.equal((await raw.request("concierge", { action: "undo" })).code, "not_found");

    // A terminal agent's question: the answer is typed, and the feed says the concierge typed it
    // (an open question is no routine one: the person lets it answer any).
    await raw.request("concierge", { action: "answer", answer: "always" });
    const { id: term } = await hub.call("dispatch", { profile: "asker", name: "term" });
    await waitFor("term asks", async () =>
      (await rowOf(hub, term))?.waitingFor === "question" ? true : undefined,
    );
    const typed = await concierge.request("concierge-reply", { id: "term", text: "42" });
    assert.equal(typed.ok, true, JSON.stringify(typed));
    const termEvents = (await raw.request("events", { id: term })).result.events;
    const typedEvent = termEvents.findLast((e: { kind: string }) => e.kind === "reply");
    assert.deepEqual([typedEvent.why, typedEvent.who, typedEvent.whoId], ["typed", "concierge", cid]);
  });

  test("act needs the person's leave; the concierge stops and starts sessions, never itself", async (t) => {
    const { hub, raw, worker, cid, concierge } = await concierged(t);
    assert.equal((await concierge.request("concierge-act", { what: "stop", id: worker })).code, "policy");
    await raw.request("concierge", { action: "act", act: true });
    assert.equal((await concierge.request("concierge-act", { what: "stop", id: cid })).code, "bad_request");
    assert.equal((await concierge.request("concierge-act", { what: "fly", id: worker })).code, "bad_request");
    const stopped = await concierge.request("concierge-act", { what: "stop", id: worker });
    assert.equal(stopped.ok, true, JSON.stringify(stopped));
    await waitFor("the worker stopped", async () =>
      (await rowOf(hub, worker))?.lifecycle === "stopped" ? true : undefined,
    );
    const made = await concierge.request("concierge-act", {
      what: "dispatch",
      launch: { profile: "mute", name: "helper" },
    });
    assert.equal(made.result.name, "helper");
    const reserved = await concierge.request("concierge-act", {
      what: "dispatch",
      launch: { profile: "mute", name: "concierge" },
    });
    assert.equal(reserved.code, "reserved_name");
  });

  test("off stops it and on starts the same job again", async (t) => {
    const { raw, cid } = await concierged(t);
    const off = await raw.request("concierge", { action: "off" });
    assert.equal(off.ok, true);
    await waitFor("the concierge stopped", async () =>
      (await raw.request("concierge", { action: "status" })).result.job.lifecycle === "stopped"
        ? true
        : undefined,
    );
    const on = await raw.request("concierge", { action: "on" });
    assert.equal(on.result.job.id, cid);
    assert.equal(on.result.running, true);
  });
});
