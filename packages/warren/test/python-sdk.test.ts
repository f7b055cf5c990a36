import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ListeningServer } from "../src/server/index.js";
import { catalogWithLoudYard, shout } from "./helpers/loud-yard.js";
import { call, runWithClaims, startTestServer, waitFor } from "./helpers/server.js";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const sdk = `${packageDir}sdk/python/warren_agent.py`;
const example = `${packageDir}examples/bridge_engineer.py`;

let server: ListeningServer;
before(async () => {
  server = await startTestServer({ spectatorMaxBufferedBytes: 64 * 1024, scenarios: catalogWithLoudYard });
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

  it("creates a run with a baseline per agent and every affordance offered, and reads its scores", async () => {
    const result = (await python(
      `
import json, sys, time
from warren_agent import WarrenClient
warren = WarrenClient(sys.argv[1])
run = warren.create_run("harvest_rush", seed=2, npc_policy={"farmer-3": "random"}, affordances="all")
while warren.run(run["run_id"])["status"] == "running":
    time.sleep(0.05)
view = warren.run(run["run_id"])
print(json.dumps({"policy": run["npc_policy"], "affordances": run["affordances"], "status": view["status"],
                  "controllers": [a["controller"] for a in view["scores"]["agents"]]}))
`,
      server.url,
    )) as Record<string, unknown>;
    assert.deepEqual(result.policy, { "farmer-3": "random" });
    assert.equal(result.affordances, "all");
    assert.equal(result.status, "failed", "a random farmer loses the harvest");
    assert.deepEqual(result.controllers, ["solution", "solution", "random"]);
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

  it("play_agent never sends what the affordances exclude", async () => {
    const { run_id: runId } = (
      await call(server.url, "POST", "/v1/runs", {
        query: { scenario: "bridge_repair", seed: 3 },
        body: { controlled_agents: ["engineer-1"] },
      })
    ).json;
    const run = server.registry.get(runId).run;
    const playing = python(
      `
import json, sys
from warren_agent import WarrenClient, play_agent
rejections = []
def decide(context):
    rejections.append(context["rejection"])
    if len(rejections) == 1:
        return {"action": "fly", "args": {}}
    if len(rejections) == 2:
        return {"action": "move_to", "args": {"dest": "moon"}}
    return {"sleep_ms": 600000}
status = play_agent(WarrenClient(sys.argv[1]).agent(sys.argv[2], "engineer-1"), decide, wait_s=1)
print(json.dumps({"status": status, "rejections": rejections}))
`,
      server.url,
      runId,
    );
    await waitFor("the first command", async () => (run.events().some((e) => e.receipt) ? true : undefined));
    run.dispose("the test is done");
    const result = (await playing) as { status: string; rejections: (string | null)[] };
    // Ended either way: disposed here, or failed first at its deadline while the engineer slept.
    assert.match(result.status, /^(crashed|failed)$/);
    assert.equal(result.rejections[0], null);
    assert.match(result.rejections[1]!, /^"fly" is not offered now/);
    assert.match(result.rejections[2]!, /^move_to's dest must be one of/);
    // The first observation got one command, the sleep (a message may wake the engineer later).
    const commands = run
      .events()
      .filter((e) => (e.kind === "verdict" || e.receipt) && e.data.observation_id === "engineer-1#0");
    assert.deepEqual(
      commands.map((e) => [e.kind, e.receipt?.status, e.data.sleep_ms]),
      [["decision", "accepted", 600_000]],
    );
  });

  it("play_agent reports usage with the next accepted command, the tries not sent or refused included", async () => {
    const { run_id: runId } = (
      await call(server.url, "POST", "/v1/runs", {
        query: { scenario: "bridge_repair", seed: 3 },
        body: { controlled_agents: ["engineer-1"] },
      })
    ).json;
    const result = (await python(
      `
import json, sys
from warren_agent import WarrenClient, play_agent
warren = WarrenClient(sys.argv[1])
tries = []
def decide(context):
    tries.append(context["rejection"])
    if len(tries) == 1:  # excluded by the affordances: never sent
        return {"action": "fly", "args": {}, "usage": {"input_tokens": 5, "output_tokens": 1}}
    if len(tries) == 2:  # refused by the server
        return {"sleep_ms": 0, "usage": {"input_tokens": 7, "output_tokens": 2, "cost": 0.5}}
    if len(tries) == 3:  # accepted, with all three tries' usage
        return {"noop": True, "usage": {"input_tokens": 11, "output_tokens": 3}}
    warren.delete_run(sys.argv[2])
    return {"noop": True}
status = play_agent(warren.agent(sys.argv[2], "engineer-1"), decide, wait_s=1)
print(json.dumps({"status": status, "view": warren.run(sys.argv[2])}))
`,
      server.url,
      runId,
    )) as { status: string; view: { scores: { agents: { agent_id: string; usage?: unknown }[] } } };
    assert.equal(result.status, "deleted");
    const engineer = result.view.scores.agents.find((a) => a.agent_id === "engineer-1")!;
    assert.deepEqual(engineer.usage, { commands: 1, input_tokens: 23, output_tokens: 6, cost: 0.5 });
  });

  it("spectates a run to its end, resuming after a lagged close with every event once", async () => {
    const { runId, leases } = await runWithClaims(server.url, "loud_yard", ["shouter-1"]);
    const lease = leases["shouter-1"]!;
    const dir = mkdtempSync(join(tmpdir(), "warren-py-"));
    const go = join(dir, "go");
    try {
      // The reader stops after its first event until the file `go` appears.
      const reading = python(
        `
import json, os, sys, time
from warren_agent import WarrenClient
cursors, lags = [], []
def on_event(event):
    cursors.append(event["cursor"])
    if len(cursors) == 1:
        deadline = time.time() + 60
        while not os.path.exists(sys.argv[3]) and time.time() < deadline:
            time.sleep(0.02)
last = WarrenClient(sys.argv[1]).spectate(sys.argv[2], on_event, on_lagged=lags.append)
print(json.dumps({"cursors": cursors, "lags": lags, "last": last}))
`,
        server.url,
        runId,
        go,
      );
      const clients = server.app.websocketServer.clients;
      await waitFor("the spectator to connect", async () => (clients.size > 0 ? true : undefined));
      const lagging = () => [...clients].some((c) => c.readyState !== c.OPEN);
      for (let i = 0; i < 200 && !lagging(); i++) await shout(server.url, runId, lease, 100 * 1024);
      assert.ok(lagging(), "the paused reader was lagged");
      writeFileSync(go, "");
      const run = server.registry.get(runId).run;
      run.dispose("the test is done");
      const result = (await reading) as { cursors: number[]; lags: number[]; last: number };
      assert.equal(result.lags.length, 1);
      assert.equal(result.last, run.eventCursor);
      assert.deepEqual(
        result.cursors,
        run.events(0).map((e) => e.cursor),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
