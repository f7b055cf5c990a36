import { fileURLToPath } from "node:url";
import { WARREN_PLAY_ENV } from "./pi-extension.js";
import { piCliPath, piExtensionPath } from "./pi-profile.js";

/** The coding agents `warren play --agent` sets down at a run. */
export const CODING_AGENTS = ["claude", "codex", "pi"] as const;
export type CodingAgent = (typeof CODING_AGENTS)[number];

/** The seat a coding agent takes: one agent of one run on one server. */
export interface PlayTarget {
  server: string;
  runId: string;
  agentId: string;
}

/** A program to start: its environment is added to the one it inherits. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface LaunchOptions {
  /** The agent's program (default: `claude` or `codex` on the PATH; pi as warren installs it). */
  program?: string;
  /** Play without a person: the agent's non-interactive mode, its output on the terminal. */
  print?: boolean;
  /** The server's access token: handed over in the environment, never on a command line. */
  token?: string;
  /** More arguments for the agent's program. */
  extra?: string[];
}

/** The MCP server's name in the agent's configuration: its tools are `mcp__warren__…`. */
const SERVER_NAME = "warren";
const TOKEN_ENV = "WARREN_TOKEN";

/** This package's `warren` command (beside src/ and dist/ alike). */
const warrenBin = fileURLToPath(new URL("../../bin/warren.js", import.meta.url));

/** `warren mcp` for the seat: the program an agent's MCP client starts. */
export function mcpServerCommand(target: PlayTarget): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [warrenBin, "mcp", "--server", target.server, "--run", target.runId, "--agent", target.agentId],
  };
}

/** The first message: what to do with the tools, and that they may take a moment to appear. */
export function playPrompt(target: PlayTarget): string {
  return (
    `You play ${target.agentId} in the warren run ${target.runId} through the tools of the ` +
    `${SERVER_NAME} MCP server (its instructions are your briefing). If they are not in your tool ` +
    "list yet, wait for that server to connect. Call observe first, then answer each observation " +
    "with exactly one tool call, until a tool answers that the run has ended."
  );
}

/** The command line that sets the agent playing the seat through `warren mcp`. */
export function launchOf(agent: CodingAgent, target: PlayTarget, options: LaunchOptions = {}): Launch {
  const env: Record<string, string> = options.token ? { [TOKEN_ENV]: options.token } : {};
  const extra = options.extra ?? [];
  const prompt = playPrompt(target);
  const server = mcpServerCommand(target);
  if (agent === "claude") {
    // Claude Code hands its own environment to the servers it starts, the token with it.
    const config = JSON.stringify({ mcpServers: { [SERVER_NAME]: server } });
    return {
      command: options.program ?? "claude",
      args: [
        "--mcp-config",
        config,
        "--allowedTools",
        `mcp__${SERVER_NAME}`,
        ...(options.print ? ["--print"] : []),
        ...extra,
        prompt,
      ],
      env,
    };
  }
  if (agent === "codex") {
    // `-c` values are TOML; JSON strings and arrays of strings are TOML too. Codex gives a
    // server only the variables it names, so the token's is named.
    const key = `mcp_servers.${SERVER_NAME}`;
    const settings = [
      `${key}.command=${JSON.stringify(server.command)}`,
      `${key}.args=${JSON.stringify(server.args)}`,
      `${key}.default_tools_approval_mode="approve"`,
      ...(options.token ? [`${key}.env_vars=${JSON.stringify([TOKEN_ENV])}`] : []),
    ].flatMap((setting) => ["-c", setting]);
    return {
      command: options.program ?? "codex",
      args: [...(options.print ? ["exec", "--skip-git-repo-check"] : []), ...settings, ...extra, prompt],
      env,
    };
  }
  // pi has no MCP client: warren's pi extension plays the seat from inside it.
  const program = options.program ? [] : [piCliPath()];
  return {
    command: options.program ?? process.execPath,
    args: [...program, "-e", piExtensionPath(), ...extra],
    env: { ...env, [WARREN_PLAY_ENV]: `${target.server} ${target.runId} ${target.agentId}` },
  };
}
