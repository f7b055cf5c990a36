import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Envelope, type Receipt, WarrenClient } from "../src/client/index.js";
import type { Decision } from "../src/engine/index.js";
import { findScenario } from "../src/scenarios/index.js";
import { serverForSuite } from "./helpers/server.js";
import { packageDir, warrenBin } from "./helpers/warren-process.js";

const live = serverForSuite();
const clients: Client[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

/** The real `warren mcp ARGS` as a child process, spoken to by the SDK's own client. */
async function mcpClient(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [warrenBin, "mcp", "--server", live.url, ...args],
    cwd: packageDir,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client({ name: "warren-test", version: "0" });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => err };
}

type Structured = { receipt?: Receipt; observation?: Envelope };

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return { result, text, structured: result.structuredContent as Structured | undefined };
}

function toolCall(decision: Decision): [string, Record<string, unknown>] {
  if (decision.kind === "action") return [decision.action, decision.args];
  if (decision.kind === "sleep") return ["sleep", { ms: decision.sleep_ms }];
  return ["noop", {}];
}

async function engineerRun(): Promise<string> {
  const run = await new WarrenClient(live.url).createRun("bridge_repair", {
    seed: 3,
    controlled_agents: ["engineer-1"],
    npc_policy: "solution",
  });
  return run.run_id;
}

describe("warren mcp", () => {
  it("lists the briefing's tools with their input schemas, then observe, sleep and noop; the briefing is the instructions", async () => {
    const runId = await engineerRun();
    const { client } = await mcpClient(["--run", runId, "--agent", "engineer-1"]);
    // The same scenario, seed and agent in a second run: its briefing, read over HTTP.
    const other = new WarrenClient(live.url).agent(await engineerRun(), "engineer-1");
    const briefing = await other.briefing();
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...briefing.tool_catalog.map((t) => t.name), "observe", "sleep", "noop"],
    );
    for (const spec of briefing.tool_catalog) {
      const tool = tools.find((t) => t.name === spec.name)!;
      assert.equal(tool.description, spec.description);
      assert.deepEqual(tool.inputSchema, spec.input_schema);
    }
    const instructions = client.getInstructions() ?? "";
    assert.ok(instructions.includes(briefing.premise), "the premise is in the instructions");
    for (const objective of briefing.objectives) assert.ok(instructions.includes(objective.description));
  });

  it("plays bridge_repair to completed with the solution runner's moves made as tool calls", async () => {
    const { client, stderr } = await mcpClient([
      "--scenario",
      "bridge_repair",
      "--seed",
      "3",
      "--agent",
      "engineer-1",
    ]);
    const runner = findScenario("bridge_repair")!.solution("engineer-1");
    let { structured, text } = await callTool(client, "observe");
    assert.match(text, /You are/);
    let calls = 0;
    for (;;) {
      if (!structured?.observation) {
        ({ structured, text } = await callTool(client, "observe"));
        if (/has ended/.test(text)) break;
        continue;
      }
      const [tool, args] = toolCall(runner.decide(structured.observation.observation));
      const answer = await callTool(client, tool, args);
      calls++;
      if (/has ended/.test(answer.text)) {
        assert.equal(answer.result.isError, true);
        break;
      }
      assert.notEqual(answer.result.isError, true, answer.text);
      assert.ok(["accepted", "duplicate"].includes(answer.structured!.receipt!.status));
      ({ structured, text } = answer);
      assert.ok(calls < 500, "the run ends");
    }
    const runId = /made (\S+)/.exec(stderr())![1]!;
    const run = await new WarrenClient(live.url).run(runId);
    assert.equal(run.status, "completed");
  });

  it("takes a retried call once: the retry is a duplicate of the command the cancelled call made", async () => {
    const runId = await engineerRun();
    const { client } = await mcpClient(["--run", runId, "--agent", "engineer-1"]);
    const runner = findScenario("bridge_repair")!.solution("engineer-1");
    const first = await callTool(client, "observe");
    const [tool, args] = toolCall(runner.decide(first.structured!.observation!.observation));
    const cancel = new AbortController();
    const abandoned = client.callTool({ name: tool, arguments: args }, undefined, { signal: cancel.signal });
    setImmediate(() => cancel.abort());
    await assert.rejects(abandoned);
    const retry = await callTool(client, tool, args);
    assert.equal(retry.structured!.receipt!.status, "duplicate", retry.text);
    assert.equal(retry.structured!.receipt!.observation_id, first.structured!.observation!.observation_id);
    const observationId = first.structured!.observation!.observation_id;
    const events = live.server.registry
      .get(runId)
      .run.events(0)
      .filter((e) => (e.data as { observation_id?: string }).observation_id === observationId);
    const decisions = events.filter((e) => e.kind === "decision");
    assert.equal(decisions.length, 1, JSON.stringify(events));
    assert.ok(
      events.some((e) => e.kind === "verdict" && (e.data as { status?: string }).status === "duplicate"),
    );
  });

  it("reports each command's outcome as the server judged it, a refusal's with its sentence", async () => {
    // Every tool offered, so the engine itself refuses a repair at the workshop.
    const { run_id: runId } = await new WarrenClient(live.url).createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["engineer-1"],
      npc_policy: "solution",
      affordances: "all",
    });
    const { client } = await mcpClient(["--run", runId, "--agent", "engineer-1"]);
    await callTool(client, "observe");
    const refused = await callTool(client, "repair");
    const slept = await callTool(client, "sleep", { ms: 1000 });
    const run = live.server.registry.get(runId).run;
    const asJudged = (receipt: Receipt) => run.receipt("engineer-1", receipt.command_id);
    assert.equal(refused.structured!.receipt!.outcome, "rejected", refused.text);
    assert.notEqual(refused.structured!.receipt!.outcome_reason, "");
    assert.deepEqual(refused.structured!.receipt, asJudged(refused.structured!.receipt!));
    assert.equal(slept.structured!.receipt!.outcome, "accepted", slept.text);
    assert.deepEqual(slept.structured!.receipt, asJudged(slept.structured!.receipt!));
  });

  it("answers a call after the run ended plainly, as an error, without waiting", async () => {
    const runId = await engineerRun();
    const { client } = await mcpClient(["--run", runId, "--agent", "engineer-1"]);
    await callTool(client, "observe");
    await new WarrenClient(live.url).deleteRun(runId);
    const answer = await callTool(client, "noop");
    assert.equal(answer.result.isError, true);
    assert.match(answer.text, /The run has ended \(deleted\)/);
    const again = await callTool(client, "observe");
    assert.equal(again.result.isError, true);
  });
});
