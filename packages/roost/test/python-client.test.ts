import assert from "node:assert/strict";
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { jobEnvironment } from "../src/protocol/environment.js";
import { emptyReport, normalizeReport } from "../src/protocol/report.js";
import type { ScriptedDaemon } from "./fixtures/client-fake-daemon.js";
import { jobIdentity, scriptedDaemonSuite } from "./helpers/scripted-daemon.js";

const sdk = fileURLToPath(new URL("../sdk/python", import.meta.url));
const sdkFile = join(sdk, "roost_agent.py");
/** The machine's python3, resolved once (a version manager's shim costs a start each time). */
const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();

const { cleanups, scripted } = scriptedDaemonSuite();

/** Runs a Python script as a job's agent would run; resolves with its stdout once it exits 0. */
function runAgent(daemon: ScriptedDaemon, script: string): { child: ChildProcess; done: Promise<string> } {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    PYTHONPATH: sdk,
    ...jobEnvironment(jobIdentity(daemon)),
  };
  const child = spawn(python, ["-c", script], { env, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => void child.kill("SIGKILL"));
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<string>((resolve, reject) => {
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`python exited ${code}: ${stderr}${stdout}`)),
    );
  });
  return { child, done };
}

const acked = (daemon: ScriptedDaemon) =>
  daemon.ops("ack").map((a) => (a.args.exact ? `${a.args.seq}!` : a.args.seq));
const summaries = (daemon: ScriptedDaemon) =>
  daemon.ops("report").map((r) => (r.args.report as { summary: string | null }).summary);

test("the Python client is one file of Python 3.8 that imports the standard library only", async () => {
  const { stdout } = await promisify(execFile)(python, [
    "-c",
    `import ast, sys
tree = ast.parse(open(${JSON.stringify(sdkFile)}).read(), feature_version=(3, 8))
names = set()
for node in ast.walk(tree):
    if isinstance(node, ast.Import):
        names.update(a.name.split(".")[0] for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        names.add((node.module or "").split(".")[0])
# Before 3.10 there is no list: a few standard modules a client of this kind may use.
stdlib = getattr(sys, "stdlib_module_names", None) or {
    "base64", "collections", "errno", "hashlib", "json", "os", "random", "re", "select", "signal",
    "socket", "struct", "sys", "threading", "time", "typing", "uuid"}
print(",".join(sorted(names)))
print(all(n in stdlib for n in names))`,
  ]);
  const [names, allStdlib] = stdout.trim().split("\n");
  assert.ok(names?.split(",").includes("socket"), names);
  assert.equal(allStdlib, "True", `not all of ${names} are in the standard library`);
});

test("outside a job from_env is None; the older names still find the job", async () => {
  const { stdout } = await promisify(execFile)(
    python,
    [
      "-c",
      `from roost_agent import RoostAgent, job_identity_from_env
print(RoostAgent.from_env("a", env={}) is None)
print(job_identity_from_env({"PI_JOB_ID": "old", "PI_JOB_TOKEN": "t", "PI_DAEMON_SOCK": "/s", "PI_JOB_DIR": "/d", "ROOST_JOB_ID": "new"})["id"])`,
    ],
    { env: { ...process.env, PYTHONPATH: sdk } },
  );
  assert.deepEqual(stdout.trim().split("\n"), ["True", "new"]);
});

test("Python: hello and a full report on connecting; replies once each, in order, one at a time, recorded before their ack", async () => {
  const daemon = await scripted();
  const ledgerAtAck: number[] = [];
  daemon.answer = (req) => {
    if (req.op === "ack") {
      ledgerAtAck.push(JSON.parse(readFileSync(join(daemon.dir, "job", "agent.json"), "utf8")).finished);
    }
    return req.op === "hello"
      ? { result: { protocol: 1, daemon: { name: "roost", version: "t" }, capabilities: [] } }
      : { result: {} };
  };
  const agent = runAgent(
    daemon,
    `import json, threading, time
from roost_agent import RoostAgent
handled, running, overlap = [], [0], [False]
done = threading.Event()
def on_reply(r):
    running[0] += 1
    overlap[0] = overlap[0] or running[0] > 1
    handled.append([r.seq, r.text, r.mode, r.kind])
    time.sleep(0.05)
    running[0] -= 1
    if r.seq == 4:
        done.set()
agent = RoostAgent.from_env("py-agent", version="2.0", on_reply=on_reply)
agent.report("working", summary="reading")
done.wait(10)
time.sleep(0.1)
agent.close()
print(json.dumps({"handled": handled, "overlap": overlap[0]}))`,
  );
  await daemon.until(() => daemon.ops("report").length === 1, "the first report");
  const [hello, report] = daemon.ops();
  assert.deepEqual(hello?.args, {
    protocol: 1,
    agent: { name: "py-agent", version: "2.0" },
    capabilities: ["report", "replies"],
    id: "job-1",
    token: "secret",
  });
  assert.deepEqual(report?.args, {
    id: "job-1",
    token: "secret",
    report: { ...emptyReport(), summary: "reading" },
  });
  daemon.send({ event: "deliver", id: "job-1", seq: 1, text: "first" });
  daemon.send({ event: "deliver", id: "job-1", seq: 2, text: "second", mode: "steer" });
  daemon.send({ event: "deliver", id: "job-1", seq: 1, text: "first" });
  await daemon.until(() => acked(daemon).length === 2, "two acks");
  daemon.send({ event: "deliver", id: "job-1", seq: 2, text: "second" });
  daemon.send({ event: "deliver", id: "job-1", seq: 3, text: "a peer says", kind: "message", from: "other" });
  daemon.send({ event: "deliver", id: "job-1", seq: 4, text: "last" });
  const out = JSON.parse(await agent.done);
  assert.deepEqual(out.handled, [
    [1, "first", "followUp", null],
    [2, "second", "steer", null],
    [3, "a peer says", "followUp", "message"],
    [4, "last", "followUp", null],
  ]);
  assert.equal(out.overlap, false);
  assert.deepEqual(acked(daemon), [1, 2, 2, "3!", 4]);
  assert.ok(
    ledgerAtAck.every((finished, i) => finished >= [1, 2, 2, 2, 4][i]!),
    `ledger at the acks: ${ledgerAtAck}`,
  );
  assert.deepEqual(JSON.parse(readFileSync(join(daemon.dir, "job", "agent.json"), "utf8")), {
    finished: 4,
    items: [3],
  });
});

test("Python: started again, it skips what agent.json says it finished and only acks it", async () => {
  const daemon = await scripted();
  mkdirSync(join(daemon.dir, "job"), { recursive: true });
  writeFileSync(join(daemon.dir, "job", "agent.json"), JSON.stringify({ finished: 2, items: [] }));
  const agent = runAgent(
    daemon,
    `import json, threading
from roost_agent import RoostAgent
handled, done = [], threading.Event()
def on_reply(r):
    handled.append(r.text)
    done.set()
agent = RoostAgent.from_env("py", on_reply=on_reply)
agent.report("working")
done.wait(10)
agent.close()
print(json.dumps(handled))`,
  );
  await daemon.until(() => daemon.ops("report").length === 1, "the first report");
  for (const [seq, text] of [
    [1, "one"],
    [2, "two"],
    [3, "three"],
  ] as const) {
    daemon.send({ event: "deliver", id: "job-1", seq, text });
  }
  assert.deepEqual(JSON.parse(await agent.done), ["three"]);
  assert.deepEqual(acked(daemon), [1, 2, 3]);
});

test("Python: the running text is paced, a change of state goes at once, close sends the latest", async () => {
  const daemon = await scripted();
  const agent = runAgent(
    daemon,
    `import sys, time
from roost_agent import RoostAgent
agent = RoostAgent.from_env("py", summary_interval=1.0)
agent.report("working", summary="one")
while not agent.connected:
    time.sleep(0.01)
agent.report("working", summary="two")
agent.report("working", summary="three")
# "three" goes at 1.0 s; "four" comes half a second later, half a second before it may go.
time.sleep(1.5)
agent.report("working", summary="four")
agent.report("blocked", waiting_for="question", question="which?", summary="asking")
time.sleep(0.1)
agent.report("blocked", waiting_for="question", question="which?", summary="last words")
agent.close()
try:
    agent.report("failed", error="late")
except Exception as e:
    print("raised", e)
print("closed")`,
  );
  assert.equal((await agent.done).trim(), "closed");
  assert.deepEqual(summaries(daemon), ["one", "three", "asking", "last words"]);
  const [first, second] = daemon.ops("report");
  assert.ok(second!.at - first!.at >= 950, `paced by ${second!.at - first!.at} ms`);
  assert.deepEqual(daemon.ops("report")[2]?.args.report, {
    ...emptyReport(),
    state: "blocked",
    waitingFor: "question",
    question: "which?",
    summary: "asking",
  });
});

test("Python: request returns results and raises RoostError with the code, TimeoutError, disconnected", async () => {
  const daemon = await scripted();
  daemon.answer = (req) => {
    if (req.op === "peers") return { result: { peers: ["a"] } };
    if (req.op === "task") return { code: "conflict", error: "held by another session" };
    if (req.op === "slow") return "silent";
    return { result: {} };
  };
  const agent = runAgent(
    daemon,
    `import json, threading
from roost_agent import RoostAgent, RoostError
agent = RoostAgent.from_env("py")
out = {}
try:
    agent.request("peers", {})
except RoostError as e:
    out["before"] = e.code
agent.report("working")
out["peers"] = agent.request("peers", {}, timeout=5)
try:
    agent.request("task", {"action": "claim", "id": 1})
except RoostError as e:
    out["task"] = [e.code, str(e)]
try:
    agent.request("slow", {}, timeout=0.2)
except TimeoutError:
    out["slow"] = "timeout"
print(json.dumps(out), flush=True)
try:
    agent.request("slow", {}, timeout=10)
except RoostError as e:
    out["lost"] = e.code
print(json.dumps(out))`,
  );
  await daemon.until(() => daemon.ops("slow").length === 2, "the second slow request");
  await daemon.stop();
  const lines = (await agent.done).trim().split("\n");
  assert.deepEqual(JSON.parse(lines.at(-1)!), {
    before: "bad_request",
    peers: { peers: ["a"] },
    task: ["conflict", "conflict: held by another session"],
    slow: "timeout",
    lost: "disconnected",
  });
});

test("Python: after the daemon goes away it reconnects with backoff, says hello, resends the latest report", async () => {
  const daemon = await scripted();
  const agent = runAgent(
    daemon,
    `import json, sys, time
from roost_agent import RoostAgent
greetings = []
agent = RoostAgent.from_env("py", on_connected=lambda hello: greetings.append(hello), backoff=(0.02, 0.1))
agent.report("working", summary="before")
while len(greetings) < 1 or agent.connected is False:
    time.sleep(0.01)
sys.stdout.write("up\\n"); sys.stdout.flush()
while agent.connected:
    time.sleep(0.01)
agent.report("working", summary="while away")
while len(greetings) < 2:
    time.sleep(0.01)
agent.close()
print(json.dumps([g["daemon"]["name"] for g in greetings]))`,
  );
  // Once the agent says it is up: its first report was answered.
  await new Promise<void>((resolve) =>
    agent.child.stdout!.on("data", (d) => String(d).includes("up") && resolve()),
  );
  await daemon.stop();
  await new Promise((resolve) => setTimeout(resolve, 150));
  await daemon.listen();
  const out = (await agent.done).trim().split("\n");
  assert.deepEqual(JSON.parse(out.at(-1)!), ["roost", "roost"]);
  const second = daemon.ops().filter((r) => r.connection === 2);
  assert.deepEqual(second.map((r) => r.op).slice(0, 2), ["hello", "report"]);
  assert.equal((second[1]!.args.report as { summary: string }).summary, "while away");
});

test("Python: unauthorized stops it speaking for the job", async () => {
  const daemon = await scripted();
  daemon.answer = (req) =>
    req.op === "report" ? { code: "unauthorized", error: "wrong token" } : { result: {} };
  const agent = runAgent(
    daemon,
    `import json, time
from roost_agent import RoostAgent, RoostError
errors = []
agent = RoostAgent.from_env("py", on_error=lambda e: errors.append(e.code), backoff=(0.02, 0.1))
agent.report("working")
print(agent.wait(5))
agent.report("working", summary="again")
try:
    agent.request("peers", {}, timeout=1)
except RoostError as e:
    errors.append(e.code)
time.sleep(0.2)
print(json.dumps(errors))`,
  );
  const [stopped, errors] = (await agent.done).trim().split("\n");
  assert.equal(stopped, "True");
  assert.deepEqual(JSON.parse(errors!), ["unauthorized", "unauthorized"]);
  assert.equal(daemon.connectionCount, 1);
  assert.equal(daemon.ops("report").length, 1);
});

test("Python: close acks a running reply only if its handler finishes first", async () => {
  const daemon = await scripted();
  const agent = runAgent(
    daemon,
    `import json, threading, time
from roost_agent import RoostAgent
started, release = threading.Event(), threading.Event()
def on_reply(r):
    if r.seq == 2:
        started.set()
        release.wait(5)
agent = RoostAgent.from_env("py", on_reply=on_reply)
agent.report("working")
started.wait(10)
agent.close()
release.set()
time.sleep(0.2)
print("closed")`,
  );
  await daemon.until(() => daemon.ops("report").length === 1, "the first report");
  daemon.send({ event: "deliver", id: "job-1", seq: 1, text: "quick" });
  daemon.send({ event: "deliver", id: "job-1", seq: 2, text: "slow" });
  daemon.send({ event: "deliver", id: "job-1", seq: 3, text: "never started" });
  assert.equal((await agent.done).trim(), "closed");
  assert.deepEqual(acked(daemon), [1]);
  assert.equal(JSON.parse(readFileSync(join(daemon.dir, "job", "agent.json"), "utf8")).finished, 1);
});

test("Python reports are filled, cut at the spec's limits and refused as the TypeScript client does", async () => {
  const cases: Record<string, unknown>[] = [
    {},
    {
      state: "blocked",
      waitingFor: "question",
      question: "q".repeat(2000),
      choices: Array(20).fill("c".repeat(200)),
    },
    { question: "q".repeat(2001), choices: Array(21).fill("c".repeat(201)) },
    { summary: "s".repeat(500), tool: "t".repeat(100), error: "e".repeat(1000), name: "n".repeat(200) },
    { summary: "s".repeat(501), tool: "t".repeat(101), error: "e".repeat(1001), name: "n".repeat(201) },
    { name: "two\nlines  and\ttabs", model: "m", thinking: "high", agentItems: true },
    { context: { tokens: 10, window: 100, percent: 10, extra: 1 }, usage: { cost: 1 }, prLinks: ["a"] },
    { remoteAt: "r".repeat(501), status: "busy" },
  ];
  const refused: Record<string, unknown>[] = [
    { state: "sleeping" },
    { status: "asleep" },
    { waitingFor: "nothing" },
    { summary: 3 },
    { choices: "a" },
    { choices: [1] },
    { agentItems: "yes" },
    { context: { tokens: 1 } },
    { usage: [] },
  ];
  const { stdout } = await promisify(execFile)(
    python,
    [
      "-c",
      `import json, sys
from roost_agent import normalize_report, RoostError
out = []
for case in json.loads(sys.argv[1]):
    out.append(normalize_report(case))
for case in json.loads(sys.argv[2]):
    try:
        normalize_report(case)
        out.append("accepted")
    except RoostError as e:
        out.append(e.code)
print(json.dumps(out))`,
      JSON.stringify(cases),
      JSON.stringify(refused),
    ],
    { env: { ...process.env, PYTHONPATH: sdk } },
  );
  const out = JSON.parse(stdout) as unknown[];
  assert.deepEqual(
    out.slice(0, cases.length),
    cases.map((c) => normalizeReport(c)),
  );
  assert.deepEqual(
    out.slice(cases.length),
    refused.map(() => "bad_request"),
  );
  for (const bad of refused) assert.throws(() => normalizeReport(bad));
});
