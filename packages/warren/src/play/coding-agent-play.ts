import { spawn } from "node:child_process";
import type { WarrenClient } from "../client/warren-client.js";
import {
  type CodingAgent,
  type Launch,
  type LaunchOptions,
  launchOf,
  type PlayTarget,
} from "./coding-agent.js";
import { shellWord } from "./shell-word.js";

/** The launch as one shell line, the token's value left out. */
export function launchLine(launch: Launch): string {
  const env = Object.keys(launch.env).map((name) =>
    name === "WARREN_TOKEN" ? `${name}=…` : `${name}=${shellWord(launch.env[name]!)}`,
  );
  return [...env, launch.command, ...launch.args]
    .map((w, i) => (i < env.length ? w : shellWord(w)))
    .join(" ");
}

/** What a person installs to have each. */
const PRODUCT: Record<CodingAgent, string> = { claude: "Claude Code", codex: "Codex", pi: "pi" };

/** Runs the program on this terminal; its exit code. A program that is not there is said plainly. */
function runOnTerminal(agent: CodingAgent, launch: Launch): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      stdio: "inherit",
      env: { ...process.env, ...launch.env },
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") return reject(error);
      reject(
        Object.assign(
          new Error(
            `${launch.command} was not found: install ${PRODUCT[agent]}, or name its program with --program PATH`,
          ),
          { code: "agent_not_found" },
        ),
      );
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * A coding agent plays the seat from its own loop, through `warren mcp` (pi through warren's pi
 * extension); resolves, once the agent's program has ended, to 0 when the run completed.
 */
export async function playWithCodingAgent(
  client: WarrenClient,
  agent: CodingAgent,
  target: PlayTarget,
  options: LaunchOptions,
  say: (line: string) => void,
): Promise<number> {
  const launch = launchOf(agent, target, options);
  say(`warren play: ${agent} plays ${target.agentId} in ${target.runId}: ${launchLine(launch)}`);
  const exit = await runOnTerminal(agent, launch);
  const view = await client.run(target.runId);
  const reason = view.status_reason ? ` (${view.status_reason})` : "";
  say(`warren play: ${target.runId} is ${view.status}${reason}; ${agent} exited with ${exit}`);
  return view.status === "completed" ? 0 : 1;
}
