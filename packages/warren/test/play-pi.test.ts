import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { warrenPiProfile } from "../src/play/pi-profile.js";
import type { ToolSpec } from "../src/protocol/index.js";
import {
  isObservation,
  type PiFakeModel,
  piAgentDir,
  piEngineerAnswer,
  startPiModel,
} from "./helpers/engineer-models.js";
import { engineerStart, roost, startWarrenServe } from "./helpers/play-table.js";

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
  let model: PiFakeModel;
  let home = "";
  let piDir = "";
  let catalog: ToolSpec[] = [];
  before(async () => {
    catalog = (await engineerStart()).briefing.tool_catalog;
    home = mkdtempSync(join(tmpdir(), "warren-pi-"));
    // The fake model plays the engineer's plan from the observation in the last message; as the
    // lookout it thinks too long over its first observation, then answers noop.
    model = await startPiModel(async (request) => {
      if (!isObservation(request)) return { text: "waiting for the next observation" };
      if (request.last.includes("(lookout-1, lookout)")) {
        if (request.last.includes("[t=0s]")) await new Promise((r) => setTimeout(r, 4000));
        return { tools: [{ name: "noop", args: {} }] };
      }
      return piEngineerAnswer(request, catalog);
    });
    // The fake model reports 1000 prompt and 10 completion tokens a call; these prices (per million)
    // make pi's cost of a call 0.5 + 0.25.
    piDir = piAgentDir(model.baseUrl, { input: 500, output: 25_000, cacheRead: 0, cacheWrite: 0 });
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
