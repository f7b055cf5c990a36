import assert from "node:assert/strict";
import { test } from "node:test";
import { cliHome } from "./helpers/cli.js";
import { runCli } from "./helpers/daemon.js";
import { modulesLoaded } from "./helpers/module-loads.js";

const cli = cliHome("roost-cli-loads-");

/** What a command that only asks the daemon must not load: each costs start-up time. */
const HEAVY = [
  { what: "the daemon", pattern: /\/dist\/daemon\// },
  { what: "the hub's terminal UI", pattern: /\/dist\/hub\/(hub|hub-view|full-screen-tui)\.js$|pi-tui/ },
  { what: "TypeBox (the schemas and their compiler)", pattern: /\/node_modules\/typebox\// },
  { what: "ajv", pattern: /\/node_modules\/ajv\// },
  { what: "SQLite", pattern: /better-sqlite3/ },
  { what: "the terminals' modules", pattern: /@xterm\/|node-pty/ },
];

test("roost ls loads the client, the framing and the table's format, and nothing heavy", async () => {
  // The first command starts the daemon; the one watched finds it running, as a person's would.
  assert.equal((await cli.roost("ls")).code, 0);
  let out: Awaited<ReturnType<typeof runCli>> | undefined;
  const loaded = await modulesLoaded(async (env) => {
    out = await runCli(cli.home, ["ls"], env);
  });
  assert.equal(out?.code, 0, out?.stderr);
  assert.match(out!.stdout, /no jobs/);
  const ours = loaded.filter((url) => url.includes("/dist/")).map((url) => url.replace(/^.*\/dist\//, ""));
  // The recorder saw the command itself: an empty list would pass whatever was loaded.
  assert.ok(ours.includes("cli/commands/rows.js"), `loaded: ${ours.join(", ")}`);
  for (const { what, pattern } of HEAVY) {
    const found = loaded.filter((url) => pattern.test(url));
    assert.deepEqual(found, [], `roost ls loads ${what}`);
  }
  // Only the command asked for: another command's module is not loaded.
  assert.deepEqual(
    ours.filter((file) => file.startsWith("cli/commands/") && file !== "cli/commands/rows.js"),
    [],
  );
  console.log(`roost ls loads ${loaded.length} modules, ${ours.length} of roost's: ${ours.join(", ")}`);
});

test("roost --help still lists every command, each loaded for its usage", async () => {
  const out = await cli.roost("--help");
  assert.equal(out.code, 0, out.stderr);
  for (const name of [
    "hub",
    "daemon",
    "shutdown",
    "dispatch",
    "ls",
    "describe",
    "reply",
    "attach",
    "concierge",
  ])
    assert.match(out.stdout, new RegExp(`^  roost ${name}\\b`, "m"));
});
