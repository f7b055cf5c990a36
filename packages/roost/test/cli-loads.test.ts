import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { cliHome } from "./helpers/cli.js";
import { runCli } from "./helpers/daemon.js";
import { modulesLoaded } from "./helpers/module-loads.js";

const cli = cliHome("roost-cli-loads-");
const PACKAGE = pathToFileURL(fileURLToPath(new URL("../", import.meta.url))).href;
const BUNDLE = new URL("dist/cli/roost.cjs", PACKAGE);

/** What a command that only asks the daemon must not load: each costs start-up time. */
const HEAVY = [
  { what: "the daemon", pattern: /\/dist\/daemon\// },
  { what: "the hub's terminal UI", pattern: /\/dist\/hub\/(hub|hub-view|full-screen-tui)\.js$|pi-tui/ },
  { what: "TypeBox (the schemas and their compiler)", pattern: /\/node_modules\/typebox\// },
  { what: "ajv", pattern: /\/node_modules\/ajv\// },
  { what: "SQLite", pattern: /better-sqlite3/ },
  { what: "the terminals' modules", pattern: /@xterm\/|node-pty/ },
];

/** The source files the build bundled, from the `// src/FILE` line esbuild writes above each one's code. */
function bundledSources(): string[] {
  const text = readFileSync(BUNDLE, "utf8");
  return [...new Set([...text.matchAll(/^\/\/ src\/(\S+\.ts)$/gm)].map((m) => m[1]!))].sort();
}

test("roost ls loads the command and its one bundle, and nothing heavy", async () => {
  // The first command starts the daemon; the one watched finds it running, as a person's would.
  assert.equal((await cli.roost("ls")).code, 0);
  let out: Awaited<ReturnType<typeof runCli>> | undefined;
  const loaded = await modulesLoaded(async (env) => {
    out = await runCli(cli.home, ["ls"], env);
  });
  assert.equal(out?.code, 0, out?.stderr);
  assert.match(out!.stdout, /no jobs/);
  const ours = loaded.filter((url) => url.startsWith(PACKAGE)).map((url) => url.slice(PACKAGE.length));
  // Every module of roost's read is a file opened, read and compiled: two, not one per module.
  assert.deepEqual(ours, ["bin/roost.js", "dist/cli/roost.cjs"]);
  for (const { what, pattern } of HEAVY) {
    const found = loaded.filter((url) => pattern.test(url));
    assert.deepEqual(found, [], `roost ls loads ${what}`);
  }
  console.log(`roost ls loads ${loaded.length} modules, ${ours.length} of roost's: ${ours.join(", ")}`);
});

test("the bundle holds the row commands and what they use: no other command, no daemon, no hub", () => {
  const sources = bundledSources();
  // The bundle was read: an empty list would pass whatever it held.
  assert.ok(sources.includes("cli/commands/rows.ts"), `bundled: ${sources.join(", ")}`);
  assert.deepEqual(
    sources.filter((file) => /^cli\/(commands\/|main\.ts|hub\.ts|attach\.ts)/.test(file)),
    ["cli/commands/rows.ts"],
  );
  assert.deepEqual(
    sources.filter((file) => /^(daemon|web|pi)\/|^hub\/(hub|hub-view|full-screen-tui)\.ts$/.test(file)),
    [],
  );
  // Packages stay in node_modules (a native one cannot be bundled): the bundle requires only node's,
  // and imports only main (for every other command).
  const text = readFileSync(BUNDLE, "utf8");
  const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
  assert.ok(required.length > 0);
  assert.deepEqual(
    required.filter((specifier) => !specifier.startsWith("node:")),
    [],
  );
  assert.deepEqual(
    [...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]),
    ["./main.js"],
  );
});

test("another command runs from main's bundle, the row commands' bundle handing it on", async () => {
  let out: Awaited<ReturnType<typeof runCli>> | undefined;
  const loaded = await modulesLoaded(async (env) => {
    out = await runCli(cli.home, ["describe", "nobody"], env);
  });
  assert.equal(out?.code, 1);
  // Its refusal has its code: main's RoostError was caught by main's own runner.
  assert.match(out!.stderr, /^roost describe: not_found: /m);
  const ours = loaded.filter((url) => url.startsWith(PACKAGE)).map((url) => url.slice(PACKAGE.length));
  // Three files read, not main's modules one by one; typebox is in the bundle, not read file by file.
  assert.deepEqual([...ours].sort(), ["bin/roost.js", "dist/cli/main.bundle.mjs", "dist/cli/roost.cjs"]);
  assert.deepEqual(
    loaded.filter((url) => /\/node_modules\/typebox\//.test(url)),
    [],
  );
});

test("roost --version and -V print the package's version, loading no command", async () => {
  const { version } = JSON.parse(readFileSync(new URL("package.json", PACKAGE), "utf8"));
  for (const flag of ["--version", "-V"]) {
    let out: Awaited<ReturnType<typeof runCli>> | undefined;
    const loaded = await modulesLoaded(async (env) => {
      out = await runCli(cli.home, [flag], env);
    });
    assert.equal(out?.code, 0, out?.stderr);
    assert.equal(out!.stdout, `${version}\n`);
    assert.deepEqual(
      loaded.filter((url) => url.startsWith(PACKAGE)).map((url) => url.slice(PACKAGE.length)),
      ["bin/roost.js", "dist/cli/roost.cjs"],
    );
  }
  // main, run on its own (from the build, as the daemon is), says the same.
  const main = fileURLToPath(new URL("dist/cli/main.js", PACKAGE));
  const { stdout } = await promisify(execFile)(process.execPath, [main, "--version"]);
  assert.equal(stdout, `${version}\n`);
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
  assert.match(out.stdout, /roost --version/);
});
