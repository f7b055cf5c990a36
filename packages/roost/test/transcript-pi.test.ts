// A pi job's transcript, read from the session file its worker reports (it says `transcript`):
// what the fake model was sent and answered, a child's report as its own entry; pages of one entry
// adding up to the whole; the op's limits and refusals; the agent's text made safe for a terminal.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { envelopeBody, LIMITS } from "../src/protocol/index.js";
import type { FakeAnswer, FakeRequest } from "./fixtures/fake-openai.js";
import type { Message } from "./helpers/daemon.js";
import { TEST_PROFILES } from "./helpers/daemon.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";

let suite: PiSuite;
/** What the fake model answered each request. */
const answers = new Map<FakeRequest, FakeAnswer>();

/** An answer with escape sequences in it: a title, a cleared screen, a colour. */
const HOSTILE = "look\x1b]0;pwned\x07 here\x1b[2J\nsecond \x1b[31mred\x1b[0m line";

function answer(request: FakeRequest): FakeAnswer {
  if (request.role === "tool") return { text: `tool said: ${request.last}` };
  if (request.last.includes("<agent-message")) return { text: "noted the report" };
  if (request.last === "run it") return { tools: [{ name: "bash", args: { command: "echo hi" } }] };
  if (request.last === "spawn a kid")
    return { tools: [{ name: "roost_spawn", args: { task: "kid task", name: "kid" } }] };
  if (request.last === "kid task") return { text: "kid result" };
  if (request.last === "say it loud") return { text: HOSTILE };
  return { text: `answer to: ${request.last}` };
}

before(async () => {
  suite = await startPiSuite(
    (request) => {
      const made = answer(request);
      answers.set(request, made);
      return made;
    },
    { agentProfiles: { mute: TEST_PROFILES.mute } },
  );
});
after(() => suite?.close());

async function transcript(args: Record<string, unknown>): Promise<Message> {
  const response = await suite.hub.request("transcript", args);
  assert.equal(response.ok, true, JSON.stringify(response));
  return response.result;
}

/** An entry as the model saw it: a call's input as the object it sent, an agent message's body. */
function asSeen(entry: Message) {
  if (entry.kind === "tool-call")
    return { kind: entry.kind, tool: entry.tool, input: JSON.parse(entry.text) };
  return { kind: entry.kind, text: entry.text };
}

/** What a request of the job's brought to the model, and what the model answered it. */
function exchanged(request: FakeRequest) {
  const last = request.last;
  const heard =
    request.role === "tool"
      ? { kind: "tool-result", text: last }
      : last.startsWith("<agent-message")
        ? { kind: "agent-message", text: envelopeBody(last) }
        : { kind: "user", text: last };
  const made = answers.get(request)!;
  const said =
    "text" in made
      ? [{ kind: "assistant", text: made.text }]
      : made.tools.map((t) => ({ kind: "tool-call", tool: t.name, input: t.args }));
  return [heard, ...said];
}

test("the task, a tool call and its result, a child's report as its own entry, the answers: as the model was sent and answered them", {
  timeout: PI_WAIT_MS * 3,
}, async () => {
  const { id } = await suite.dispatch("run it", { name: "parent" });
  await suite.row(id, (r) => r.state === "done" && /^tool said/.test(r.summary ?? ""), "the first run");
  await suite.hub.request("reply", { id, text: "spawn a kid" });
  await suite.row(id, (r) => r.state === "done" && r.summary === "noted the report", "the report taken");
  const page = await transcript({ id });
  assert.equal(page.program, "pi");
  assert.equal(page.more, false);
  assert.match(page.file, new RegExp(`/jobs/${id}/session\\.jsonl$`));
  const parents = suite.model.requests.filter((r) =>
    r.messages.some((m) => m.role === "user" && JSON.stringify(m.content).includes("run it")),
  );
  assert.deepEqual(page.entries.map(asSeen), parents.flatMap(exchanged));
  // Two runs of a call, its result and an answer, and the report with the answer to it.
  assert.equal(page.entries.length, 10);
  const report = page.entries.find((e: Message) => e.kind === "agent-message");
  assert.equal(report.text, "state: done\n\nkid result");
  assert.deepEqual([report.from, report.relation, report.delivery], ["kid", "child", "report"]);
  const spawned = page.entries.find((e: Message) => e.kind === "tool-result" && e.tool === "roost_spawn");
  assert.match(spawned.text, /^kid \(\w+\) started/);

  // The child's own: its task, as its parent gave it, and its answer.
  const rows = (await suite.hub.request("list")).result.rows as Message[];
  const kid = rows.find((r) => r.name === "kid")!;
  const kidPage = await transcript({ id: kid.id });
  assert.deepEqual(kidPage.entries.map(asSeen), [
    { kind: "user", text: "kid task" },
    { kind: "assistant", text: "kid result" },
  ]);

  // One entry a page: the cursors go through the whole of it, and nothing comes twice.
  const paged: Message[] = [];
  let cursor = "";
  for (;;) {
    const one = await transcript({ id, after: cursor, limit: 1 });
    assert.ok(one.entries.length <= 1);
    paged.push(...one.entries);
    cursor = one.cursor;
    if (!one.more) break;
  }
  assert.deepEqual(paged, page.entries);
  assert.deepEqual((await transcript({ id, after: cursor })).entries, []);
});

test("limit 1 to 500, a cursor the daemon gave, a job that keeps a transcript: anything else is refused with its code", {
  timeout: PI_WAIT_MS,
}, async () => {
  const { id } = await suite.dispatch("hello there");
  await suite.row(id, (r) => r.state === "done", "its answer");
  assert.equal((await transcript({ id, limit: LIMITS.transcriptEntries })).entries.length, 2);
  const refused = async (args: Record<string, unknown>, code: string, message: RegExp) => {
    const response = await suite.hub.request("transcript", args);
    assert.equal(response.code, code, JSON.stringify(response));
    assert.match(response.error, message);
  };
  await refused({ id, limit: LIMITS.transcriptEntries + 1 }, "bad_request", /limit/);
  await refused({ id, limit: 0 }, "bad_request", /limit/);
  await refused({ id, after: "not a cursor" }, "bad_request", /after/);
  await refused({ id: "no-such-job" }, "not_found", /no-such-job/);
  const mute = (await suite.hub.request("dispatch", { profile: "mute" })).result.id;
  await refused({ id: mute }, "unsupported", /keeps no transcript roost reads/);
});

test("roost transcript: the agent's escape sequences never reach the terminal; --json writes them escaped", {
  timeout: PI_WAIT_MS,
}, async () => {
  const { id } = await suite.dispatch("say it loud");
  await suite.row(id, (r) => r.state === "done", "its answer");
  const text = await suite.daemon.cli(["transcript", id]);
  assert.equal(text.code, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /[\x1b\x07\x9b]/);
  const lines = text.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^\d\d:\d\d:\d\d {2}you {11}say it loud$/);
  assert.match(lines[1]!, /^\d\d:\d\d:\d\d {2}pi {12}look here$/);
  // The answer's second line, under its first.
  assert.equal(lines[2], `${" ".repeat(24)}second red line`);
  const json = await suite.daemon.cli(["transcript", id, "--json"]);
  assert.doesNotMatch(json.stdout, /[\x1b\x07]/);
  assert.equal(JSON.parse(json.stdout.trim().split("\n")[1]!).text, HOSTILE);
});
