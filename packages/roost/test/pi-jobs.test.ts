import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { FakeRequest } from "./fixtures/fake-openai.js";
import { waitFor } from "./helpers/daemon.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";

let suite: PiSuite;

/** The fake model's script: `hold NAME` runs a bash tool that waits for the file NAME; `ask me` asks. */
function script(request: FakeRequest) {
  if (request.role === "tool") return { text: `tool done: ${request.last.trim()}` };
  const hold = /hold (\S+)/.exec(request.last);
  if (hold) {
    const file = join(suite.piDir, hold[1]!);
    return {
      tools: [{ name: "bash", args: { command: `while [ ! -f ${file} ]; do sleep 0.05; done; echo held` } }],
    };
  }
  const dump = /dump env to (\S+)/.exec(request.last);
  if (dump) return { tools: [{ name: "bash", args: { command: `env > ${join(suite.piDir, dump[1]!)}` } }] };
  if (request.last.includes("ask me")) return { text: "Which file should I fix?" };
  return { text: `answer to: ${request.last}` };
}

before(async () => {
  suite = await startPiSuite(script);
});
after(() => suite?.close());

/** The user messages in a job's session file, in order. */
function sessionUserTexts(dir: string): string[] {
  const file = join(dir, "session.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((e) => e.type === "message" && e.message.role === "user")
    .map((e) =>
      typeof e.message.content === "string"
        ? e.message.content
        : e.message.content.map((c: { text?: string }) => c.text ?? "").join(""),
    );
}

async function reply(id: string, text: string, mode?: "steer") {
  const answer = await suite.hub.request("reply", { id, text, ...(mode ? { mode } : {}) });
  assert.equal(answer.ok, true, JSON.stringify(answer));
}

test("a pi job takes its task as reply 1; its row goes working, then blocked with the question", {
  timeout: PI_WAIT_MS * 2,
}, async () => {
  const { id } = await suite.dispatch("hold go-1 then ask me");
  const working = await suite.row(id, (r) => r.state === "working" && r.tool === "bash", "the running tool");
  assert.equal(working.status, "busy");
  writeFileSync(join(suite.piDir, "go-1"), "");
  // The tool's result ends the run with text, not a question; the next reply asks.
  await suite.row(id, (r) => r.state === "done", "done");
  await reply(id, "now ask me something");
  const row = await suite.row(
    id,
    (r) => r.state === "blocked" && r.waitingFor === "question",
    "the question",
  );
  assert.equal(row.question, "Which file should I fix?");
  assert.equal(row.model, "fake/fake-model");
  assert.equal(row.pending, 0);
  assert.equal(row.context?.window, 128000);
  assert.ok(row.capabilities.includes("steer") && row.capabilities.includes("agent-items"));
});

test("steer joins the run under way, a plain reply comes after it, /model switches the next request's model", {
  timeout: PI_WAIT_MS * 2,
}, async () => {
  const { id } = await suite.dispatch("hold go-2");
  await suite.row(id, (r) => r.tool === "bash", "the running tool");
  await reply(id, "steered in", "steer");
  await reply(id, "after the run");
  writeFileSync(join(suite.piDir, "go-2"), "");
  const steered = await suite.model.waitFor((r) => r.last === "steered in", 0, PI_WAIT_MS);
  // Joined the run: the tool's result is right before it, with no final answer between.
  assert.equal(steered.messages.at(-2)?.role, "tool");
  const later = await suite.model.waitFor((r) => r.last === "after the run", 0, PI_WAIT_MS);
  assert.match(later.messages.at(-2)?.content ?? "", /^answer to: steered in/);
  await suite.row(id, (r) => r.state === "done" && r.pending === 0, "done with both");

  await reply(id, "/model fake/fake-other");
  await reply(id, "which model now");
  const switched = await suite.model.waitFor((r) => r.last === "which model now", 0, PI_WAIT_MS);
  assert.equal(switched.model, "fake-other");
  await suite.row(id, (r) => r.model === "fake/fake-other" && r.state === "done", "the new model on the row");
});

test("the job's token is not in the environment of a tool's subprocess", {
  timeout: PI_WAIT_MS * 2,
}, async () => {
  const { id } = await suite.dispatch("dump env to env-3");
  const file = join(suite.piDir, "env-3");
  await waitFor("the tool's output", async () => (existsSync(file) ? true : undefined), PI_WAIT_MS);
  await suite.row(id, (r) => r.state === "done", "done");
  const env = readFileSync(file, "utf8");
  assert.match(env, new RegExp(`^ROOST_JOB_ID=${id}$`, "m"));
  assert.doesNotMatch(env, /^(ROOST|PI)_JOB_TOKEN=/m);
});

test("a reply is taken once across a SIGKILL of the daemon and one of pi", {
  timeout: PI_WAIT_MS * 3,
}, async () => {
  const { id } = await suite.dispatch("first task");
  const first = await suite.row(id, (r) => r.state === "done", "the task done");
  await reply(id, "once please");
  await suite.daemon.kill("SIGKILL");
  await suite.daemon.start();
  suite.hub.close();
  suite.hub = await suite.daemon.connect();
  await suite.row(id, (r) => r.state === "done" && r.pending === 0 && r.connected, "the reply taken");
  process.kill(first.pid, "SIGKILL");
  await suite.row(id, (r) => r.pid === null, "pi gone");
  // A reply starts the ended job again: pi resumes its session file.
  await reply(id, "and the next");
  await suite.row(id, (r) => r.summary === "answer to: and the next", "the next reply answered");
  const dir = join(suite.daemon.stateDir, "jobs", id);
  assert.deepEqual(sessionUserTexts(dir), ["first task", "once please", "and the next"]);
  assert.equal(suite.model.requests.filter((r) => r.last === "once please").length, 1);
});
