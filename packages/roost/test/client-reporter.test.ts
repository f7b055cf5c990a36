import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffDelay } from "../src/client/backoff.js";
import { reportUrgency } from "../src/client/report-pacing.js";
import { Reporter } from "../src/client/reporter.js";
import { RoostError } from "../src/protocol/errors.js";
import { emptyReport } from "../src/protocol/report.js";
import type { ScriptedDaemon } from "./fixtures/client-fake-daemon.js";
import { jobIdentity, scriptedDaemonSuite } from "./helpers/scripted-daemon.js";

const { cleanups, scripted } = scriptedDaemonSuite();

function reporter(daemon: ScriptedDaemon, options: Partial<ConstructorParameters<typeof Reporter>[0]> = {}) {
  const r = new Reporter({
    identity: jobIdentity(daemon),
    agent: { name: "test-agent", version: "1.2" },
    capabilities: ["report", "replies"],
    summaryIntervalMs: 300,
    backoff: { initialMs: 20, maxMs: 100 },
    ...options,
  });
  cleanups.push(() => r.close());
  return r;
}

const summaries = (daemon: ScriptedDaemon) =>
  daemon.ops("report").map((r) => (r.args.report as { summary: string | null }).summary);

test("a change of state goes at once, the running text alone at most every interval", () => {
  const base = { ...emptyReport(), summary: "a" };
  assert.equal(reportUrgency(base, undefined), "now");
  assert.equal(reportUrgency({ ...base }, base), "none");
  assert.equal(reportUrgency({ ...base, summary: "b" }, base), "paced");
  assert.equal(reportUrgency({ ...base, tool: "bash" }, base), "paced");
  for (const change of [
    { state: "blocked" as const },
    { status: "idle" as const },
    { waitingFor: "question" as const },
    { question: "which?" },
    { choices: ["x"] },
  ]) {
    assert.equal(reportUrgency({ ...base, summary: "b", ...change }, base), "now", JSON.stringify(change));
  }
});

test("backoff doubles from its start to its ceiling, jittered in the upper half", () => {
  const options = { initialMs: 100, maxMs: 1000 };
  assert.equal(
    backoffDelay(0, options, () => 0),
    50,
  );
  assert.equal(
    backoffDelay(0, options, () => 1),
    100,
  );
  assert.equal(
    backoffDelay(3, options, () => 1),
    800,
  );
  assert.equal(
    backoffDelay(4, options, () => 1),
    1000,
  );
  assert.equal(
    backoffDelay(60, options, () => 0),
    500,
  );
  for (let attempt = 0; attempt < 10; attempt++) {
    const d = backoffDelay(attempt, options);
    assert.ok(d >= Math.min(1000, 100 * 2 ** attempt) / 2 && d <= 1000, `${attempt}: ${d}`);
  }
});

test("the first report connects, says hello with the job's id and token, then reports", async () => {
  const daemon = await scripted();
  const r = reporter(daemon);
  assert.equal(daemon.connectionCount, 0);
  r.report({ state: "working", summary: "reading" });
  await daemon.until(() => daemon.ops("report").length === 1, "the first report");
  const [hello, report] = daemon.ops();
  assert.equal(hello?.op, "hello");
  assert.deepEqual(hello?.args, {
    protocol: 1,
    agent: { name: "test-agent", version: "1.2" },
    capabilities: ["report", "replies"],
    id: "job-1",
    token: "secret",
  });
  assert.equal(report?.op, "report");
  assert.equal(report?.args.id, "job-1");
  assert.equal(report?.args.token, "secret");
  // A full snapshot: what was left out is null.
  assert.deepEqual(report?.args.report, { ...emptyReport(), summary: "reading" });
  assert.throws(
    () => r.report({ state: "sleeping" as never }),
    (e: unknown) => e instanceof RoostError && e.code === "bad_request",
  );
});

test("the running text is paced while a change of state goes at once", async () => {
  const daemon = await scripted();
  const r = reporter(daemon, { summaryIntervalMs: 400 });
  r.report({ summary: "one" });
  await daemon.until(() => r.connected, "the connection");
  r.report({ summary: "two" });
  r.report({ summary: "three" });
  assert.deepEqual(summaries(daemon), ["one"]);
  await daemon.until(() => summaries(daemon).length === 2, "the paced report");
  assert.deepEqual(summaries(daemon), ["one", "three"]);
  const [first, second] = daemon.ops("report");
  assert.ok(second!.at - first!.at >= 350, `paced by ${second!.at - first!.at} ms`);
  r.report({ summary: "four" });
  r.report({ state: "blocked", waitingFor: "question", question: "which file?", summary: "asking" });
  await daemon.until(() => summaries(daemon).length === 3, "the state change");
  assert.deepEqual(summaries(daemon), ["one", "three", "asking"]);
  // The same snapshot again sends nothing.
  r.report({ state: "blocked", waitingFor: "question", question: "which file?", summary: "asking" });
  await r.flush();
  assert.equal(daemon.ops("report").length, 3);
});

test("after the daemon goes away it reconnects with backoff, says hello and resends the latest report", async () => {
  const daemon = await scripted();
  let greeted = 0;
  const r = reporter(daemon, { onConnected: () => greeted++ });
  r.report({ summary: "before" });
  await daemon.until(() => r.connected, "the connection");
  await daemon.stop();
  await daemon.until(() => !r.connected, "the loss");
  r.report({ state: "working", summary: "while away" });
  // It keeps trying while nothing listens; let a few attempts fail before the daemon is back.
  await new Promise((resolve) => setTimeout(resolve, 150));
  await daemon.listen();
  await daemon.until(() => greeted === 2, "the second greeting");
  const second = daemon.ops().filter((req) => req.connection === 2);
  assert.deepEqual(
    second.map((req) => req.op),
    ["hello", "report"],
  );
  assert.equal((second[1]!.args.report as { summary: string }).summary, "while away");
  assert.equal(daemon.connectionCount, 2);
});

test("a hello refused as unknown by an older daemon is not fatal", async () => {
  const daemon = await scripted();
  daemon.answer = (req) =>
    req.op === "hello" ? { code: "bad_request", error: "unknown op" } : { result: {} };
  const r = reporter(daemon);
  r.report({ summary: "hi" });
  await daemon.until(() => r.connected, "the connection");
  assert.deepEqual(
    daemon.ops().map((req) => req.op),
    ["hello", "report"],
  );
});

test("unauthorized stops it speaking for the job: no reconnection, calls refused", async () => {
  const daemon = await scripted();
  daemon.answer = (req) =>
    req.op === "report" ? { code: "unauthorized", error: "wrong token" } : { result: {} };
  let refused: RoostError | undefined;
  const r = reporter(daemon, { onUnauthorized: (e) => (refused = e) });
  r.report({ summary: "hi" });
  await daemon.until(() => refused !== undefined, "the refusal");
  assert.equal(refused?.code, "unauthorized");
  assert.equal(r.unauthorized, true);
  await assert.rejects(
    r.call("list", {}),
    (e: unknown) => e instanceof RoostError && e.code === "unauthorized",
  );
  r.report({ summary: "again" });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(daemon.connectionCount, 1);
  assert.equal(daemon.ops("report").length, 1);
});

test("call sends any other op after the first report; a refusal carries its code", async () => {
  const daemon = await scripted();
  daemon.answer = (req) =>
    req.op === "task"
      ? { code: "conflict", error: "held by another session" }
      : req.op === "peers"
        ? { result: { peers: [] } }
        : { result: {} };
  const r = reporter(daemon);
  await assert.rejects(
    r.call("peers", {}),
    (e: unknown) => e instanceof RoostError && e.code === "bad_request",
  );
  r.report({ summary: "hi" });
  assert.deepEqual(await r.call("peers", {}), { peers: [] });
  await assert.rejects(
    r.call("task", { action: "claim", id: 3 }),
    (e: unknown) => e instanceof RoostError && e.code === "conflict" && /another session/.test(e.message),
  );
  // A request in flight when the connection is lost is refused as disconnected.
  daemon.answer = () => "silent";
  const lost = r.call("peers", {});
  await daemon.until(() => daemon.ops("peers").length === 2, "the request");
  await daemon.stop();
  await assert.rejects(lost, (e: unknown) => e instanceof RoostError && e.code === "disconnected");
});

test("close sends the latest report, paced or not, and ends the connection", async () => {
  const daemon = await scripted();
  const r = reporter(daemon, { summaryIntervalMs: 60_000 });
  r.report({ summary: "one" });
  await daemon.until(() => r.connected, "the connection");
  r.report({ summary: "last words" });
  await r.close();
  assert.deepEqual(summaries(daemon), ["one", "last words"]);
  assert.equal(r.connected, false);
  r.report({ summary: "after" });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(daemon.connectionCount, 1);
  assert.equal(daemon.ops("report").length, 2);
});
