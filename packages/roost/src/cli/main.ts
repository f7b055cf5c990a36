import { type Command, runCommand } from "./command.js";
import { isVersionFlag, roostVersion } from "./version.js";

/**
 * Every command, by name, in the overview's order. Each module is loaded only when its command
 * runs: `roost ls` starts without the hub's, the daemon's or the schemas' modules.
 */
const COMMANDS: [name: string, load: () => Promise<Command>][] = [
  ["hub", async () => (await import("./hub.js")).hub],
  ["daemon", async () => (await import("./commands/daemon.js")).daemon],
  ["shutdown", async () => (await import("./commands/daemon.js")).shutdown],
  ["dispatch", async () => (await import("./commands/jobs.js")).dispatch],
  ["ls", async () => (await import("./commands/rows.js")).ls],
  ["describe", async () => (await import("./commands/describe.js")).describe],
  ["transcript", async () => (await import("./commands/transcript.js")).transcript],
  ["reply", async () => (await import("./commands/reply.js")).reply],
  ["attach", async () => (await import("./attach.js")).attach],
  ["web", async () => (await import("./commands/web.js")).web],
  ["notify", async () => (await import("./commands/notify.js")).notify],
  ["stop", async () => (await import("./commands/jobs.js")).stop],
  ["rm", async () => (await import("./commands/jobs.js")).rm],
  ["respawn", async () => (await import("./commands/jobs.js")).respawn],
  ["resume", async () => (await import("./commands/jobs.js")).resume],
  ["adopt", async () => (await import("./commands/jobs.js")).adopt],
  ["diff", async () => (await import("./commands/worktrees.js")).diff],
  ["merge", async () => (await import("./commands/worktrees.js")).merge],
  ["branches", async () => (await import("./commands/worktrees.js")).branches],
  ["rename", async () => (await import("./commands/rows.js")).rename],
  ["pin", async () => (await import("./commands/rows.js")).pin],
  ["usage", async () => (await import("./commands/usage.js")).usage],
  ["tasks", async () => (await import("./commands/tasks.js")).tasks],
  ["schedule", async () => (await import("./commands/schedule.js")).schedule],
  ["events", async () => (await import("./commands/events.js")).events],
  ["concierge", async () => (await import("./commands/concierge.js")).concierge],
  ["doctor", async () => (await import("./commands/home.js")).doctor],
  ["restore", async () => (await import("./commands/home.js")).restore],
];

async function overview(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map(([, load]) => load()));
  // Usage on its own line and the summary under it: the usages are too long for columns at 80.
  return [
    "usage: roost COMMAND [ARGS] (roost COMMAND --help for one)",
    "",
    ...commands.map((c) => `  roost ${c.usage}\n      ${c.summary}`),
    "",
    "Every command but daemon, doctor and restore starts the daemon in the background when none runs.",
    "ROOST_HOME (default ~/.pi/agent) holds roost.json and the state folder roost/.",
    "roost --version (or -V) prints roost's version.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name = "hub", ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${await overview()}\n`);
    return name === undefined ? 1 : 0;
  }
  if (isVersionFlag(name)) {
    process.stdout.write(`${roostVersion()}\n`);
    return 0;
  }
  const load = COMMANDS.find(([known]) => known === name)?.[1];
  if (!load) {
    process.stderr.write(
      `roost: bad_request: unknown command ${JSON.stringify(name)}\n${await overview()}\n`,
    );
    return 1;
  }
  return runCommand(await load(), rest);
}

process.exitCode = await main(process.argv.slice(2));
