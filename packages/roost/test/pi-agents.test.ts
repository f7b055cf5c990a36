import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { FakeAnswer, FakeRequest } from "./fixtures/fake-openai.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";

let suite: PiSuite;

const call = (name: string, args: Record<string, unknown>): FakeAnswer => ({ tools: [{ name, args }] });

/**
 * The fake model's script for a parent pi, its children `kid` and `kid2`: each line of the test's
 * story is keyed on the last message the model is given.
 */
function script(request: FakeRequest): FakeAnswer {
  const last = request.last;
  if (request.role === "tool") {
    if (last.includes('"peers"')) return call("roost_send", { to: "kid", message: "sibling hello" });
    return { text: `tool said: ${last.split("\n")[0]}` };
  }
  if (last.includes("<agent-message")) {
    if (last.includes('kind="report"')) return { text: "noted the report" };
    const ping = /parent ping (\d+)/.exec(last);
    if (ping) return { text: `kid answer ${ping[1]}` };
    if (last.includes("sibling hello")) return { text: "kid answer sibling" };
  }
  if (last === "spawn the kids")
    return {
      tools: [
        { name: "roost_spawn", args: { task: "kid task", name: "kid" } },
        { name: "roost_spawn", args: { task: "kid2 task", name: "kid2" } },
      ],
    };
  if (last === "kid task") return { text: "kid result 0" };
  if (last === "kid2 task") return { text: "kid2 waits" };
  if (last === "list and greet") return call("roost_agents", {});
  const ping = /^ping kid (\d+)$/.exec(last);
  if (ping) return call("roost_send", { to: "kid", message: `parent ping ${ping[1]}` });
  if (last === "message kid2") return call("roost_send", { to: "kid2", message: "are you there" });
  return { text: `answer to: ${last}` };
}

before(async () => {
  suite = await startPiSuite(script);
});
after(() => suite?.close());

async function reply(id: string, text: string) {
  const answer = await suite.hub.request("reply", { id, text });
  assert.equal(answer.ok, true, JSON.stringify(answer));
}

/** The agent messages (framed items) a request carried, in order. */
function items(request: FakeRequest): string[] {
  return request.messages
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : (m.content ?? []).map((c: { text?: string }) => c.text ?? "").join(""),
    )
    .filter((text: string) => text.startsWith("<agent-message"));
}

test("a parent pi spawns children through roost_spawn; reports come back by themselves, within the rules", {
  timeout: PI_WAIT_MS * 6,
}, async () => {
  const parent = await suite.dispatch("first", { name: "parent" });
  await suite.row(parent.id, (r) => r.state === "done", "the parent's first run");
  await reply(parent.id, "/model fake/fake-other");
  await suite.row(parent.id, (r) => r.model === "fake/fake-other", "the parent on the other model");
  await reply(parent.id, "spawn the kids");

  // The children run on the parent's model; their parent session is the parent's session file.
  const kidTask = await suite.model.waitFor((r) => r.last === "kid task", 0, PI_WAIT_MS);
  assert.equal(kidTask.model, "fake-other");
  const { result } = await suite.hub.request("list", {});
  const kid = result.rows.find((r: { name: string }) => r.name === "kid");
  const kid2 = result.rows.find((r: { name: string }) => r.name === "kid2");
  assert.equal(kid.parentSession, join(suite.daemon.stateDir, "jobs", parent.id, "session.jsonl"));
  assert.equal(kid.parent, parent.id);

  // The kid's result comes to the parent as a framed report and starts the parent's next run.
  const report = await suite.model.waitFor(
    (r) => items(r).some((t) => t.includes("kid result 0") && t.includes('relation="child" kind="report"')),
    0,
    PI_WAIT_MS,
  );
  assert.match(items(report).join("\n"), /from="kid"/);
  await suite.row(kid2.id, (r) => r.state === "done", "kid2's first run");
  // kid2's report starts a parent run too; the parent is done once it has taken and answered it
  // (pi reports `working` before it acks an item, so `done` with nothing pending is after that run).
  await suite.model.waitFor(
    (r) => items(r).some((t) => t.includes("kid2 waits") && t.includes('kind="report"')),
    0,
    PI_WAIT_MS,
  );
  await suite.row(parent.id, (r) => r.state === "done" && r.pending === 0, "the parent after both reports");

  // kid2 lists its peers, then messages its sibling: that run of kid never reports to the parent.
  await reply(kid2.id, "list and greet");
  const listed = await suite.model.waitFor(
    (r) => r.role === "tool" && r.last.includes('"peers"'),
    0,
    PI_WAIT_MS,
  );
  const peers = JSON.parse(listed.last).peers as {
    name: string;
    relation: string;
    state: string;
    summary: string;
  }[];
  const byName = new Map(peers.map((p) => [p.name, p]));
  assert.equal(byName.get("kid")?.relation, "sibling");
  assert.equal(byName.get("kid")?.summary, "kid result 0");
  assert.equal(byName.get("parent")?.relation, "parent");
  assert.equal(byName.get("parent")?.state, "done");
  await suite.model.waitFor((r) => r.last.includes("sibling hello"), 0, PI_WAIT_MS);
  await suite.row(kid.id, (r) => r.summary === "kid answer sibling" && r.pending === 0, "kid answered kid2");

  // Four runs in a row that the parent's messages started: three report, the fourth does not.
  for (const n of [1, 2, 3, 4]) {
    await reply(parent.id, `ping kid ${n}`);
    await suite.row(kid.id, (r) => r.summary === `kid answer ${n}` && r.pending === 0, `kid's answer ${n}`);
    await suite.row(
      parent.id,
      (r) => r.state === "done" && r.pending === 0,
      `the parent done after ping ${n}`,
    );
  }
  // The user's reply to kid resets the count: its report comes, after the third and no fourth.
  await reply(kid.id, "from the user");
  const last = await suite.model.waitFor(
    (r) => items(r).some((t) => t.includes("answer to: from the user")),
    0,
    PI_WAIT_MS,
  );
  const reports = items(last)
    .filter((t) => t.includes('kind="report"'))
    .map((t) => t.split("\n").slice(1, 4).join(" "));
  const bodies = reports.join("\n");
  assert.match(bodies, /kid answer 3/);
  assert.doesNotMatch(bodies, /kid answer 4/);
  assert.doesNotMatch(bodies, /kid answer sibling/);

  // A message to a stopped job answers `stopped`.
  await suite.hub.request("stop", { id: kid2.id });
  await suite.row(kid2.id, (r) => r.lifecycle === "stopped", "kid2 stopped");
  await reply(parent.id, "message kid2");
  const stopped = await suite.model.waitFor(
    (r) => r.role === "tool" && r.last.startsWith("stopped"),
    0,
    PI_WAIT_MS,
  );
  assert.match(stopped.last, /^stopped \(kid2, child\)/);
});
