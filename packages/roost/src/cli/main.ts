import { attach } from "./attach.js";
import { type Command, runCommand } from "./command.js";
import { concierge } from "./commands/concierge.js";
import { daemon, shutdown } from "./commands/daemon.js";
import { describe } from "./commands/describe.js";
import { events } from "./commands/events.js";
import { doctor, restore } from "./commands/home.js";
import { dispatch, respawn, rm, stop } from "./commands/jobs.js";
import { reply } from "./commands/reply.js";
import { ls, pin, rename } from "./commands/rows.js";
import { schedule } from "./commands/schedule.js";
import { tasks } from "./commands/tasks.js";
import { hub } from "./hub.js";

const COMMANDS: Command[] = [
  hub,
  daemon,
  shutdown,
  dispatch,
  ls,
  describe,
  reply,
  attach,
  stop,
  rm,
  respawn,
  rename,
  pin,
  tasks,
  schedule,
  events,
  concierge,
  doctor,
  restore,
];

function overview(): string {
  // Usage on its own line and the summary under it: the usages are too long for columns at 80.
  return [
    "usage: roost COMMAND [ARGS] (roost COMMAND --help for one)",
    "",
    ...COMMANDS.map((c) => `  roost ${c.usage}\n      ${c.summary}`),
    "",
    "Every command but daemon, doctor and restore starts the daemon in the background when none runs.",
    "ROOST_HOME (default ~/.pi/agent) holds roost.json and the state folder roost/.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name = "hub", ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${overview()}\n`);
    return name === undefined ? 1 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`roost: bad_request: unknown command ${JSON.stringify(name)}\n${overview()}\n`);
    return 1;
  }
  return runCommand(command, rest);
}

process.exitCode = await main(process.argv.slice(2));
