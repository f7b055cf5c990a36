import type { CliCommand } from "./command.js";
import { mcpCommand } from "./commands/mcp.js";
import { playCommand } from "./commands/play.js";
import { replayCommand } from "./commands/replay.js";
import { runCommand } from "./commands/run.js";
import { runsCommand } from "./commands/runs.js";
import { scenarioCommand } from "./commands/scenario.js";
import { scenariosCommand } from "./commands/scenarios.js";
import { sweepCommand } from "./commands/sweep.js";
import { workerCommand } from "./commands/worker.js";

/**
 * serve pulls in the HTTP server and its dependencies, seconds of start-up the other commands do
 * not need: it is loaded only when it runs. Its usage and summary mirror serve.ts (a test checks).
 */
const lazyServe: CliCommand = {
  name: "serve",
  usage:
    "warren serve [--host 127.0.0.1] [--port 8080] [--lease-ttl S] [--data DIR | --no-persist] [--token T] [--allow-host NAME]... [--insecure-no-token] [--claim-within S] [--max-runs-per-client N] [--max-run-bytes N]",
  summary:
    "Serve the warren-agent/0 protocol over HTTP (runs, leases, long polls, a spectator WebSocket), keeping runs across restarts.",
  run: async (args, io) => (await import("./serve.js")).serveCommand.run(args, io),
};

/** Every `warren` subcommand, in the order `warren --help` lists them. Add new ones here. */
export const COMMANDS: CliCommand[] = [
  scenariosCommand,
  scenarioCommand,
  runCommand,
  replayCommand,
  sweepCommand,
  workerCommand,
  lazyServe,
  runsCommand,
  playCommand,
  mcpCommand,
];
