import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runCli, TEST_PROFILES } from "./helpers/daemon.js";

let home: string;
const roost = (...args: string[]) => runCli(home, args);

before(() => {
  home = mkdtempSync(join(tmpdir(), "roost-cli-dispatch-"));
  writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: TEST_PROFILES }));
});
after(async () => {
  await roost("shutdown", "--all");
  rmSync(home, { recursive: true, force: true });
});

async function json(...args: string[]) {
  const out = await roost(...args, "--json");
  assert.equal(out.code, 0, `roost ${args.join(" ")}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

test("any command starts the daemon in the background; ls lists, dispatch starts jobs", async () => {
  const empty = await roost("ls");
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stdout, "no jobs\n");
  assert.ok(existsSync(join(home, "roost", "daemon.log")), "the background daemon logs to daemon.log");

  const human = await roost("dispatch", "sleeper", "--name", "first");
  assert.equal(human.code, 0);
  assert.match(human.stdout, /^started first \([0-9a-f]{8}\)\n$/);
  const made = await json(
    "dispatch",
    "argv",
    "the task",
    "--cwd",
    home,
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
  assert.equal(rows[1].cwd, home);
  assert.equal(rows[1].task, "the task");
  const listed = await roost("ls");
  assert.match(listed.stdout, new RegExp(`${made.id}  second  `));
});
