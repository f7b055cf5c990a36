import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  home = mkdtempSync(join(tmpdir(), "roost-cli-lifecycle-"));
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

test("stop, respawn and rm, human and --json", async () => {
  const { id } = await json("dispatch", "mute", "--name", "target");
  assert.equal((await roost("stop", id)).stdout, `stopped ${id}\n`);
  assert.equal((await rows()).find((r) => r.id === id)?.lifecycle, "stopped");
  assert.deepEqual(await json("respawn", id), { id });
  assert.equal((await rows()).find((r) => r.id === id)?.lifecycle, "running");
  assert.equal((await roost("rm", id)).stdout, `removed ${id}\n`);
  assert.equal(
    (await rows()).find((r) => r.id === id),
    undefined,
  );
});
