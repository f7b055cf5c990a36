import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cliHome } from "./helpers/cli.js";

const cli = cliHome("roost-cli-dispatch-");
const { roost, json } = cli;

test("any command starts the daemon in the background; ls lists, dispatch starts jobs", async () => {
  const empty = await roost("ls");
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stdout, "no jobs (roost dispatch PROFILE [TASK] starts one)\n");
  assert.ok(existsSync(join(cli.home, "roost", "daemon.log")), "the background daemon logs to daemon.log");

  const human = await roost("dispatch", "sleeper", "--name", "first");
  assert.equal(human.code, 0);
  assert.match(human.stdout, /^started first \([0-9a-f]{8}\)\n$/);
  const made = await json(
    "dispatch",
    "argv",
    "the task",
    "--cwd",
    cli.home,
    "--name",
    "second",
    "--request-id",
    "cli-1",
  );
  assert.equal(made.name, "second");
  assert.deepEqual(
    await json("dispatch", "sleeper", "--request-id", "cli-1"),
    made,
    "a resend gives the first job",
  );

  const rows = await json("ls");
  assert.deepEqual(
    rows.map((r: { name: string }) => r.name),
    ["first", "second"],
  );
  assert.equal(rows[1].cwd, cli.home);
  assert.equal(rows[1].task, "the task");
  const listed = await roost("ls");
  assert.match(listed.stdout, new RegExp(`${made.id}  second  `));
});
