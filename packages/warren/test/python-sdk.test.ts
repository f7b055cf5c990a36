import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ListeningServer } from "../src/server/index.js";
import { call, startTestServer } from "./helpers/server.js";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const sdk = `${packageDir}sdk/python/warren_agent.py`;
const example = `${packageDir}examples/bridge_engineer.py`;

let server: ListeningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** Runs a Python snippet with the SDK importable; its last stdout line is JSON. */
async function python(code: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run("python3", ["-c", code, ...args], {
    env: { ...process.env, PYTHONPATH: `${packageDir}sdk/python` },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("Python SDK", () => {
  it("is one file of Python 3.8 importing only the standard library (the example too)", async () => {
    const result = await python(
      `
import ast, json, sys
out = {}
for path in sys.argv[1:]:
    tree = ast.parse(open(path).read(), filename=path, feature_version=(3, 8))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    out[path] = sorted(n for n in names if n not in sys.stdlib_module_names)
print(json.dumps(out))
`,
      sdk,
      example,
    );
    assert.deepEqual(result, { [sdk]: [], [example]: ["warren_agent"] });
  });

  it("plays engineer-1 in bridge_repair beside the solution NPCs and wins (the example)", async () => {
    const { stdout } = await run("python3", [example, server.url], { timeout: 60_000 });
    const [runId, status] = stdout.trim().split(" ");
    assert.equal(status, "completed");
    const view = await call(server.url, "GET", `/v1/runs/${runId}`);
    assert.equal(view.json.status, "completed");
    const engineer = view.json.agents.find((a: { agent_id: string }) => a.agent_id === "engineer-1");
    assert.equal(engineer.controller, "remote");
  });

  it("resumes a lease with redelivery, dedupes by command_id, learns from rejections and sees the end", async () => {
    const result = (await python(
      `
import json, sys
from warren_agent import WarrenClient, WarrenError, RunEnded
warren = WarrenClient(sys.argv[1])
run = warren.create_run("bridge_repair", seed=3, controlled_agents=["engineer-1"], deadline_s=30)
first = warren.agent(run["run_id"], "engineer-1", holder="py")
envelope = first.observe(5)
again = warren.agent(run["run_id"], "engineer-1", lease=first.lease)
claim = again.claim()
redelivered = again.observe(5)
try:
    warren.agent(run["run_id"], "engineer-1").claim()
    rival = None
except WarrenError as error:
    rival = [error.status, error.error]
rejected = again.submit(envelope, {"sleep_ms": "5000"}, command_id="c-1")
accepted = again.submit(envelope, {"sleep_ms": 5000}, command_id="c-1")
duplicate = again.submit(envelope, {"sleep_ms": 5000}, command_id="c-1")
polled = again.receipt("c-1")
try:
    warren.run("run-none")
    missing = None
except WarrenError as error:
    missing = [error.status, error.error]
print(json.dumps({
    "run_id": run["run_id"], "resumed": claim["resumed"], "same_lease": claim["lease"] == first.lease,
    "redelivered": redelivered == envelope, "rival": rival,
    "verdicts": [rejected["status"], accepted["status"], duplicate["status"]],
    "rejected_detail": rejected["detail"], "polled": polled["status"], "missing": missing,
    "lease": again.lease,
}))
`,
      server.url,
    )) as Record<string, unknown>;
    assert.equal(result.resumed, true);
    assert.equal(result.same_lease, true);
    assert.equal(result.redelivered, true);
    assert.deepEqual(result.rival, [409, "agent_leased"]);
    assert.deepEqual(result.verdicts, ["rejected", "accepted", "duplicate"]);
    assert.match(String(result.rejected_detail), /sleep_ms must be an integer/);
    assert.equal(result.polled, "accepted");
    assert.deepEqual(result.missing, [404, "unknown_run"]);
    // The end of the run reaches Python as RunEnded with the terminal status.
    server.registry.get(String(result.run_id)).run.dispose("stopped by the test");
    const ended = await python(
      `
import json, sys
from warren_agent import WarrenClient, RunEnded
session = WarrenClient(sys.argv[1]).agent(sys.argv[2], "engineer-1", lease=sys.argv[3])
try:
    session.observe(1)
    print(json.dumps(None))
except RunEnded as ended:
    print(json.dumps([ended.status, ended.detail]))
`,
      server.url,
      String(result.run_id),
      String(result.lease),
    );
    assert.equal((ended as string[])[0], "crashed");
    assert.match((ended as string[])[1]!, /has ended: crashed/);
  });
});
