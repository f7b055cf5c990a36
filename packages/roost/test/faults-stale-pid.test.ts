// A pid file left by a daemon that is gone costs the first command no wait on the socket, and a
// daemon that exited but is not yet reaped by its parent (a zombie) counts as stopped.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isProcessAlive } from "../src/home/process.js";
import { CLI, connectRaw, runCli, waitFor } from "./helpers/daemon.js";

test("a pid file naming a process that is gone: the daemon replaces it without asking the socket", async () => {
  const home = mkdtempSync(join(tmpdir(), "roost-stale-"));
  try {
    const gone = spawnSync("true").pid!;
    const stateDir = join(home, "roost");
    spawnSync("mkdir", ["-m", "700", stateDir]);
    writeFileSync(join(stateDir, "daemon.pid"), `${gone}\n`);
    const out = await runCli(home, ["ls"]);
    assert.equal(out.code, 0, out.stderr);
    const log = readFileSync(join(stateDir, "daemon.log"), "utf8");
    assert.match(
      log,
      new RegExp(`the pid file named ${gone}, not running: replaced without asking the socket`),
    );
  } finally {
    await runCli(home, ["shutdown", "--all"]);
    rmSync(home, { recursive: true, force: true });
  }
});

test("shutdown counts a daemon that exited but is not reaped (a zombie) as stopped", async () => {
  const home = mkdtempSync(join(tmpdir(), "roost-zombie-"));
  // The daemon's parent is a shell that execs a sleep: it never reaps the daemon once it exits.
  const parent = spawn("sh", ["-c", `"${process.execPath}" "${CLI}" daemon & exec sleep 600`], {
    env: { ...process.env, ROOST_HOME: home },
    stdio: "ignore",
  });
  try {
    await waitFor(
      "the daemon",
      async () => (await runCli(home, ["shutdown", "--help"])).code === 0 && (await connects(home)),
    );
    const out = await runCli(home, ["shutdown", "--all", "--json"]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), { stopped: true });
    const child = spawnSync("pgrep", ["-P", String(parent.pid)], { encoding: "utf8" }).stdout.trim();
    assert.notEqual(child, "", "the daemon is still the shell's child");
    const state = readFileSync(`/proc/${child}/stat`, "utf8").split(") ")[1]?.[0];
    assert.equal(state, "Z", "the daemon is a zombie");
    assert.equal(isProcessAlive(Number(child)), false);
  } finally {
    parent.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  }
});

async function connects(home: string): Promise<boolean> {
  try {
    (await connectRaw(join(home, "roost", "daemon.sock"))).close();
    return true;
  } catch {
    return false;
  }
}
