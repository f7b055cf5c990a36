/**
 * Each package README's table of commands names every command the program's `--help` lists, and no
 * other: a new command shows up in the table a person reads first.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CLI } from "./helpers/built-cli.js";
import { helpCommands, tableCommands } from "./helpers/markdown-links.js";

const run = promisify(execFile);
const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));
const readme = (name: string) => readFileSync(`${PACKAGES}${name}/README.md`, "utf8");

test("roost's README lists every command of `roost --help`", async () => {
  const { stdout } = await run(process.execPath, [CLI, "--help"], {
    env: { ...process.env, ROOST_HOME: tmpdir() },
  });
  const listed = helpCommands(stdout, "roost");
  assert.ok(listed.length > 10, stdout);
  assert.deepEqual(tableCommands(readme("roost"), "roost"), listed);
});

test("warren's README lists every command of `warren --help`", async () => {
  // warren is its sibling package: its command (as built) is run, never imported.
  const { stdout } = await run(process.execPath, [`${PACKAGES}warren/bin/warren.js`, "--help"]);
  const listed = helpCommands(stdout, "warren");
  assert.ok(listed.length > 5, stdout);
  assert.deepEqual(tableCommands(readme("warren"), "warren"), listed);
});

test("a table's command cells are read as a person reads them", () => {
  const table = [
    "| command | does |",
    "|---|---|",
    "| `roost` / `roost hub` | the hub |",
    "| `roost stop\\|rm ID\\|NAME` | two |",
    "| `roost rename ID`, `roost pin ID` | two more |",
    "| `warren run` | not roost's |",
  ].join("\n");
  assert.deepEqual(tableCommands(table, "roost"), ["hub", "pin", "rename", "rm", "stop"]);
  assert.deepEqual(helpCommands("usage:\n  roost hub\n      Opens it.\n  roost ls [--json]\n", "roost"), [
    "hub",
    "ls",
  ]);
});
