import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { connectRaw, type RawConnection, runCli, TEST_PROFILES } from "./helpers/daemon.js";

let home: string;
const roost = (...args: string[]) => runCli(home, args);

/** The rows, read over a raw connection (quicker than another `roost ls`). */
async function rows(): Promise<
  { id: string; lifecycle: string; pid: number; pending: number; pinned: boolean }[]
> {
  const c: RawConnection = await connectRaw(join(home, "roost", "daemon.sock"));
  try {
    return (await c.request("list")).result.rows;
  } finally {
    c.close();
  }
}

before(() => {
  home = mkdtempSync(join(tmpdir(), "roost-cli-shutdown-"));
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

test("shutdown leaves the jobs running; the next command starts the daemon and finds them", async () => {
  const { id } = await json("dispatch", "sleeper", "--name", "keeper");
  const before = (await rows()).find((r) => r.id === id)!;
  assert.equal((await roost("shutdown")).stdout, "daemon stopped\n");
  assert.equal(existsSync(join(home, "roost", "daemon.sock")), false);
  const after = (await json("ls")).find((r: { id: string }) => r.id === id);
  assert.equal(after.lifecycle, "running");
  assert.equal(after.pid, before.pid);
  // Without a daemon, --all starts one to end the jobs still running in the host.
  assert.equal((await roost("shutdown")).stdout, "daemon stopped\n");
  assert.equal((await roost("shutdown", "--all")).stdout, "daemon, jobs and process host stopped\n");
  assert.equal((await roost("shutdown")).stdout, "no daemon is running\n");
  assert.throws(() => process.kill(after.pid, 0), "the job's process ended");
});
