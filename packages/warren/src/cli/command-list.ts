import type { CliCommand } from "./command.js";
import { replayCommand } from "./commands/replay.js";
import { runCommand } from "./commands/run.js";
import { scenariosCommand } from "./commands/scenarios.js";
import { serveCommand } from "./serve.js";

/** Every `warren` subcommand, in the order `warren --help` lists them. Add new ones here. */
export const COMMANDS: CliCommand[] = [scenariosCommand, runCommand, replayCommand, serveCommand];
