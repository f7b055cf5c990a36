import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cliHome } from "./helpers/cli.js";

const cli = cliHome("roost-cli-shutdown-");
const { roost, json, rows } = cli;

test("shutdown leaves the jobs running; the next command starts the daemon and finds them", async () => {
  const { id } = await json("dispatch", "sleeper", "--name", "keeper");
  const before = (await rows()).find((r) => r.id === id)!;
  assert.equal((await roost("shutdown")).stdout, "daemon stopped\n");
  assert.equal(existsSync(join(cli.home, "roost", "daemon.sock")), false);
  const after = (await json("ls")).find((r: { id: string }) => r.id === id);
  assert.equal(after.lifecycle, "running");
  assert.equal(after.pid, before.pid);
  // Without a daemon, --all starts one to end the jobs still running in the host.
  assert.equal((await roost("shutdown")).stdout, "daemon stopped\n");
  assert.equal((await roost("shutdown", "--all")).stdout, "daemon, jobs and process host stopped\n");
  assert.equal((await roost("shutdown")).stdout, "no daemon is running\n");
  assert.throws(() => process.kill(after.pid, 0), "the job's process ended");
});
