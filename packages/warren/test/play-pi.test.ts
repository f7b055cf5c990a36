import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { warrenPiProfile } from "../src/play/pi-profile.js";
import { readCommand } from "../src/play/written-command.js";
import type { ToolSpec } from "../src/protocol/index.js";
import { engineerReply, engineerStart, roost, startWarrenServe } from "./helpers/play-table.js";

/** What this test uses of the fake OpenAI-compatible model of roost's pi tests. */
interface FakeModel {
  baseUrl: string;
  requests: { role: string; last: string; messages: unknown[] }[];
  waitFor(
    match: (request: FakeModel["requests"][number]) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<FakeModel["requests"][number]>;
  close(): Promise<void>;
}
type FakeAnswer = { text: string } | { tools: { name: string; args: Record<string, unknown> }[] };

// roost's own fixture (pi is roost's dependency first), loaded by its path: it is outside this package.
const { startFakeModel, fakeModelsJson } = (await import(
  new URL("../../roost/test/fixtures/fake-openai.ts", import.meta.url).href
)) as {
  startFakeModel(script: (request: FakeModel["requests"][number]) => Promise<FakeAnswer>): Promise<FakeModel>;
  fakeModelsJson(baseUrl: string): string;
};

/** Polls the run until it has ended; its view. */
async function ended(client: WarrenClient, runId: string) {
  for (;;) {
    const view = await client.run(runId);
    if (view.status !== "running" && view.status !== "created") return view;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("pi playing warren", () => {
  let warren: { url: string; stop(): void };
  let model: FakeModel;
  let home = "";
  let piDir = "";
  let catalog: ToolSpec[] = [];
  before(async () => {
    catalog = (await engineerStart()).briefing.tool_catalog;
    home = mkdtempSync(join(tmpdir(), "warren-pi-"));
    piDir = mkdtempSync(join(tmpdir(), "warren-pi-agent-"));
    // The fake model plays the engineer's plan from the observation in the last message; as the
    // lookout it thinks too long over its first observation, then answers noop.
    model = await startFakeModel(async (request) => {
      if (request.role !== "user" || !request.last.includes("[t="))
        return { text: "waiting for the next observation" };
      if (request.last.includes("(lookout-1, lookout)")) {
        if (request.last.includes("[t=0s]")) await new Promise((r) => setTimeout(r, 4000));
        return { tools: [{ name: "noop", args: {} }] };
      }
      const read = readCommand(engineerReply(request.last), [], catalog);
      if (!("payload" in read)) throw new Error(read.error);
      const { payload } = read;
      if ("noop" in payload) return { tools: [{ name: "noop", args: {} }] };
      if ("sleep_ms" in payload) return { tools: [{ name: "sleep", args: { sleep_ms: payload.sleep_ms } }] };
      return { tools: [{ name: payload.action, args: payload.args ?? {} }] };
    });
    // The fake model reports 1000 prompt and 10 completion tokens a call; these prices (per million)
    // make pi's cost of a call 0.5 + 0.25.
    const models = JSON.parse(fakeModelsJson(model.baseUrl));
    for (const m of models.providers.fake.models)
      m.cost = { input: 500, output: 25_000, cacheRead: 0, cacheWrite: 0 };
    writeFileSync(join(piDir, "models.json"), JSON.stringify(models));
    writeFileSync(
      join(piDir, "settings.json"),
      JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true }),
    );
    // The daemon, and so its jobs, inherit this environment.
    process.env.PI_CODING_AGENT_DIR = piDir;
    process.env.PI_OFFLINE = "1";
    writeFileSync(
      join(home, "roost.json"),
      JSON.stringify({ agentProfiles: { "warren-pi": warrenPiProfile() } }),
    );
    warren = await startWarrenServe();
  });
  after(async () => {
    await roost(home, "shutdown", "--all");
    rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    rmSync(piDir, { recursive: true, force: true, maxRetries: 5 });
    await model.close();
    warren.stop();
  });

  it("plays bridge_repair to completed by tool calls, and answers noop for a pi that thinks too long", async () => {
    const client = new WarrenClient(warren.url);
    const engineerRun = await client.createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["engineer-1"],
    });
    const lookoutRun = await client.createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["lookout-1"],
      npc_policy: "noop",
      deadline_s: 3,
    });
    for (const [run, agent] of [
      [engineerRun.run_id, "engineer-1"],
      [lookoutRun.run_id, "lookout-1"],
    ]) {
      const dispatched = await roost(
        home,
        "dispatch",
        "warren-pi",
        `${warren.url} ${run} ${agent}`,
        "--json",
      );
      assert.equal(dispatched.code, 0, dispatched.stderr);
    }
    const late = await model.waitFor(
      (r) => /You took too long on the observation at t=0s: a noop was sent/.test(r.last),
      0,
      90_000,
    );
    assert.match(JSON.stringify(late.messages), /\(lookout-1, lookout\)/);
    const view = await ended(client, engineerRun.run_id);
    assert.equal(view.status, "completed", view.status_reason);
    const calls = model.requests.filter(
      (r) => r.role === "tool" && JSON.stringify(r.messages).includes("(engineer-1, engineer)"),
    );
    assert.ok(calls.length >= 5, `each move was a tool call (${calls.length})`);
    // Each command carried what pi's model calls spent since the engineer's last accepted command:
    // whole calls, as pi counted them from the fake model's usage and priced them; only the calls
    // after its last command (its turn's end, the run's end) go unreported.
    const engineer = view.scores.agents.find((a) => a.agent_id === "engineer-1")!;
    const spentCalls = engineer.usage!.input_tokens / 1000;
    assert.deepEqual(engineer.usage, {
      commands: engineer.commands,
      input_tokens: 1000 * spentCalls,
      output_tokens: 10 * spentCalls,
      cost: 0.75 * spentCalls,
    });
    const engineerCalls = model.requests.filter((r) =>
      JSON.stringify(r.messages).includes("(engineer-1, engineer)"),
    ).length;
    assert.ok(
      Number.isInteger(spentCalls) && spentCalls >= engineer.commands && spentCalls <= engineerCalls,
      `${spentCalls} calls reported, of the ${engineerCalls} made for ${engineer.commands} commands`,
    );
    const rows = JSON.parse((await roost(home, "ls", "--json")).stdout) as { rows?: unknown[] } | unknown[];
    assert.ok(JSON.stringify(rows).includes("warren-pi"), "both are roost jobs");
  });
});
