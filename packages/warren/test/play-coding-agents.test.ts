import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { engineerScript, startFakeAnthropic, startFakeResponses } from "./helpers/engineer-models.js";
import { engineerStart } from "./helpers/play-table.js";
import { serverForSuite } from "./helpers/server.js";
import { startWarren } from "./helpers/warren-process.js";

type Profile = { env: Record<string, string> };
// roost's own helpers for its real-CLI tests: where .ci/run installs the CLIs, and a HOME for each.
const clis = (await import(new URL("../../roost/test/helpers/real-clis.ts", import.meta.url).href)) as {
  cliProgram(name: "claude" | "codex"): { program: string } | { skip: string };
  claudeProfile(program: string, modelUrl: string, trusted: string[]): Profile;
  codexProfile(program: string, modelUrl: string, trusted: string[]): Profile;
};

const TOKEN = "warren-coding-agents-token";
const live = serverForSuite({ token: TOKEN });

const AGENTS = [
  {
    name: "claude" as const,
    startModel: startFakeAnthropic,
    profile: clis.claudeProfile,
    // Claude Code's own tool for MCP servers still connecting.
    waiting: { name: "WaitForMcpServers", input: { servers: ["warren"] } },
  },
  {
    name: "codex" as const,
    startModel: startFakeResponses,
    profile: clis.codexProfile,
    // Codex has no such tool: a moment's shell command lets the server connect.
    waiting: { name: "exec_command", input: { cmd: "sleep 1" } },
  },
];

describe("warren play --agent: the real Claude Code and Codex play through warren mcp", () => {
  for (const agent of AGENTS) {
    const cli = clis.cliProgram(agent.name);
    it(`${agent.name} plays bridge_repair's engineer to completed; the run records its tool calls as commands`, {
      skip: "skip" in cli ? cli.skip : false,
    }, async () => {
      const { program } = cli as { program: string };
      const catalog = (await engineerStart()).briefing.tool_catalog;
      const script = engineerScript(catalog, agent.waiting);
      const model = await agent.startModel(script);
      try {
        const cwd = mkdtempSync(join(tmpdir(), `warren-${agent.name}-`));
        const { env } = agent.profile(program, model.url, [cwd]);
        // The token comes from the environment, as a person's would: neither CLI's config holds it.
        const play = startWarren(
          [
            "play",
            live.url,
            "engineer-1",
            "--scenario",
            "bridge_repair",
            "--seed",
            "3",
            "--agent",
            agent.name,
            "--program",
            program,
            "--print",
          ],
          cwd,
          { ...process.env, ...env, WARREN_TOKEN: TOKEN },
        );
        const { code } = await play.exited;
        const runId = /made (\S+)/.exec(play.stderr())?.[1];
        assert.ok(runId, play.stderr());
        const view = await new WarrenClient(live.url, { token: TOKEN }).run(runId);
        assert.equal(view.status, "completed", `${play.stderr()}\n${script.calls.join(" ")}`);
        assert.equal(code, 0, play.stderr());
        assert.match(play.stderr(), new RegExp(`${runId} is completed`));
        // Each move the model made is one command of the engineer's, under the id warren mcp derives.
        const moves = script.calls.filter(
          (name) => name.startsWith("mcp__warren__") && !name.endsWith("observe"),
        );
        const decisions = live.server.registry
          .get(runId)
          .run.events(0)
          .filter((e) => e.kind === "decision" && e.data.agent === "engineer-1" && !e.data.expired);
        assert.ok(moves.length >= 5, script.calls.join(" "));
        assert.equal(decisions.length, moves.length, JSON.stringify(decisions.map((e) => e.data)));
        for (const decision of decisions)
          assert.match(String(decision.receipt?.command_id), /^mcp-[0-9a-f]{32}$/);
        assert.ok(
          model.tasks.some((task) => task.includes("Call observe first")),
          model.tasks.join("\n"),
        );
      } finally {
        await model.close();
      }
    });
  }

  it("--dry-run prints the command line without the token's value; a program not there is said with what to install", async () => {
    const dry = startWarren([
      "play",
      live.url,
      "run-9",
      "engineer-1",
      "--agent",
      "codex",
      "--print",
      "--dry-run",
      "--token",
      TOKEN,
    ]);
    assert.equal((await dry.exited).code, 0, dry.stderr());
    const line = dry.stdout();
    assert.match(line, /^WARREN_TOKEN=… codex exec --skip-git-repo-check /);
    assert.match(line, /mcp_servers\.warren\.args=\[[^\]]*"--run","run-9","--agent","engineer-1"\]/);
    assert.match(line, /mcp_servers\.warren\.env_vars=\["WARREN_TOKEN"\]/);
    assert.doesNotMatch(line, new RegExp(TOKEN));
    const missing = startWarren([
      "play",
      live.url,
      "run-9",
      "engineer-1",
      "--agent",
      "claude",
      "--program",
      "/nowhere/claude",
    ]);
    assert.equal((await missing.exited).code, 1);
    assert.match(
      missing.stderr(),
      /agent_not_found: \/nowhere\/claude was not found: install Claude Code, or name its program with --program PATH/,
    );
  });
});
