import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { FakeAnswer, FakeRequest } from "./fixtures/fake-openai.js";
import { waitFor } from "./helpers/daemon.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";
import { testClock } from "./helpers/test-clock.js";

let suite: PiSuite;
const clock = testClock();

const call = (name: string, args: Record<string, unknown>): FakeAnswer => ({ tools: [{ name, args }] });

function systemText(request: FakeRequest): string {
  const first = request.messages[0];
  return first?.role === "system" && typeof first.content === "string" ? first.content : "";
}

let suggested = false;

/**
 * The fake model plays two parts. The concierge (its system prompt says so): a digest with the
 * asker waiting gets a suggestion, then, the suggestion taken, a reply; an order digest is applied.
 * The asker: its task asks a style question (open, so no routine one: the policy is `always`), and
 * it answers what it is told.
 */
function script(request: FakeRequest): FakeAnswer {
  const last = request.last;
  if (systemText(request).includes("You are the concierge")) {
    if (request.role === "tool") {
      if (last.startsWith("suggested to"))
        return call("concierge_reply", { id: "asker", text: "use tabs", why: "house style, routine" });
      return { text: "done" };
    }
    if (last.includes('<roost-digest why="order"')) {
      const id = /## Due now\n- #(\d+)/.exec(last)?.[1];
      return call("concierge_orders", { action: "applied", id: Number(id), text: "looked at the fleet" });
    }
    if (
      last.includes("<roost-digest") &&
      /asker \([0-9a-f]{8}\) waits for question/.test(last) &&
      !suggested
    ) {
      suggested = true;
      return call("concierge_suggest", { id: "asker", text: "use tabs", why: "house style" });
    }
    return { text: "nothing needs you" };
  }
  if (last.includes("STYLE QUESTION")) return { text: "Tabs or spaces?" };
  if (last.startsWith("Disregard")) return { text: "disregarded" };
  return { text: `did: ${last}` };
}

before(async () => {
  suite = await startPiSuite(script, { concierge: { answer: "always" } });
});
after(async () => {
  await suite?.close();
  clock.remove();
});

test("pi as the concierge: a digest wakes it, it suggests, answers the question (answer: always), undo steers the session; an order fires once per due time across a restart", {
  timeout: PI_WAIT_MS * 6,
}, async () => {
  const on = await suite.hub.request("concierge", { action: "on" });
  assert.equal(on.ok, true, JSON.stringify(on));
  const cid = on.result.job.id as string;
  await suite.row(cid, (r) => r.connected && r.role === "concierge", "the concierge's pi connected");

  const asker = await suite.dispatch("STYLE QUESTION", { name: "asker" });
  await suite.row(asker.id, (r) => r.waitingFor === "question", "the asker's question");

  // A digest wakes the concierge (its role in the system prompt): it suggests, then replies.
  const woke = await suite.model.waitFor(
    (r) =>
      systemText(r).includes("carries no authority") &&
      /asker .* waits for question: Tabs or spaces\?/.test(r.last),
    0,
    PI_WAIT_MS,
  );
  assert.match(woke.last, /^<roost-digest why="events"/);
  await suite.model.waitFor(
    (r) => r.last === "use tabs" && !systemText(r).includes("You are the concierge"),
    0,
    PI_WAIT_MS,
  );
  const { events } = (await suite.hub.request("events", { id: asker.id })).result;
  const whys = events.map((e: { kind: string; why: string; who: string }) => `${e.kind}/${e.why}/${e.who}`);
  assert.ok(whys.includes("concierge/suggest/concierge"), whys.join(" "));
  assert.ok(whys.includes("reply/reply/concierge"), whys.join(" "));
  const status = (await suite.hub.request("concierge", { action: "status" })).result;
  assert.equal(status.answered, 1);

  // Undo: the asker is told to disregard it.
  assert.equal((await suite.hub.request("concierge", { action: "undo" })).ok, true);
  await suite.model.waitFor((r) => /^Disregard the answer "use tabs"/.test(r.last), 0, PI_WAIT_MS);

  // A standing order every 30m: its time comes, the concierge applies it, once per due time.
  const added = await suite.hub.request("concierge-order", {
    action: "add",
    text: "look around",
    when: "every 30m",
  });
  const orderId = added.result.order.id;
  const count = async () =>
    (await suite.hub.request("concierge-order", { action: "list" })).result.orders[0] as {
      count: number;
      nextAt: string;
    };
  clock.advance(30 * 60_000);
  await waitFor(
    "the order applied once",
    async () => ((await count()).count === 1 ? true : undefined),
    PI_WAIT_MS,
  );
  const nextAt = (await count()).nextAt;
  assert.notEqual(nextAt, added.result.order.nextAt);

  // The count is read from memory, perhaps before its write is committed: a write of the test's own,
  // answered once committed, comes after it in the store's order.
  const pinned = await suite.hub.request("pin", { id: cid, pinned: true });
  assert.equal(pinned.ok, true, pinned.error);
  // The daemon restarts under the concierge; the order is not fired again until its next due time.
  suite.hub.close();
  await suite.daemon.kill("SIGKILL");
  await suite.daemon.start();
  suite.hub = await suite.daemon.connect();
  await suite.row(cid, (r) => r.connected, "the concierge back");
  const orderDigests = () =>
    suite.model.requests.filter((r) => r.last.includes('<roost-digest why="order"')).length;
  assert.equal(orderDigests(), 1);
  assert.deepEqual([(await count()).count, (await count()).nextAt], [1, nextAt]);
  clock.advance(30 * 60_000);
  await waitFor(
    "the order applied again",
    async () => ((await count()).count === 2 ? true : undefined),
    PI_WAIT_MS,
  );
  assert.equal(orderDigests(), 2);
  const applied = (await suite.hub.request("events", { limit: 200 })).result.events.filter(
    (e: { kind: string; why: string }) => e.kind === "concierge" && e.why === "order",
  );
  assert.deepEqual(
    applied.map((e: { text: string; whoId: string }) => [e.text, e.whoId]),
    [
      [`#${orderId} looked at the fleet`, cid],
      [`#${orderId} looked at the fleet`, cid],
    ],
  );
});
