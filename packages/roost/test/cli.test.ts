import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runCli, TEST_PROFILES } from "./helpers/daemon.js";

let home: string;
const roost = (...args: string[]) => runCli(home, args);

before(() => {
  home = mkdtempSync(join(tmpdir(), "roost-cli-"));
  writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: TEST_PROFILES }));
});
after(async () => {
  await roost("shutdown", "--all");
  rmSync(home, { recursive: true, force: true });
});

test("help: the overview, each command's usage; an unknown command fails", async () => {
  const overview = await roost("--help");
  assert.equal(overview.code, 0);
  for (const name of [
    "daemon",
    "shutdown",
    "dispatch",
    "ls",
    "describe",
    "reply",
    "stop",
    "rm",
    "respawn",
    "diff",
    "merge",
    "branches",
    "rename",
    "pin",
  ])
    assert.match(overview.stdout, new RegExp(`\\n  roost ${name}`));
  const help = await roost("dispatch", "--help");
  assert.equal(help.code, 0);
  assert.match(
    help.stdout,
    /usage: roost dispatch PROFILE \[TASK\] \[--cwd DIR\] \[--name NAME\] \[--request-id ID\]/,
  );
  const unknown = await roost("frobnicate");
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /bad_request: unknown command "frobnicate"/);
});

test("failures exit 1 with the code and the reason", async () => {
  const missing = await roost("reply", "nobody", "hi");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^roost reply: not_found: no job "nobody"/);
  const asJson = await roost("stop", "nobody", "--json");
  assert.equal(asJson.code, 1);
  assert.deepEqual(JSON.parse(asJson.stdout), { ok: false, code: "not_found", error: 'no job "nobody"' });
  const usage = await roost("dispatch");
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /bad_request: missing arguments\nusage: roost dispatch/);
  const badFlag = await roost("ls", "--colour");
  assert.equal(badFlag.code, 1);
  assert.match(badFlag.stderr, /bad_request: unknown option --colour /);
  const profile = await roost("dispatch", "no-such-profile");
  assert.equal(profile.code, 1);
  assert.match(profile.stderr, /not_found: no profile "no-such-profile"/);
});
