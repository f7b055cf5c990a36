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
  home = mkdtempSync(join(tmpdir(), "roost-cli-jobs-"));
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

test("reply, rename and pin, human and --json", async () => {
  const { id } = await json("dispatch", "mute", "--name", "target");
  const saved = await roost("reply", "target", "hello there");
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(saved.stdout, "saved reply 1\n");
  assert.deepEqual(await json("reply", id, "steer this", "--steer", "--request-id", "q-1"), {
    seq: 2,
    saved: true,
  });
  assert.equal(
    (await roost("reply", id, "steer this", "--request-id", "q-1")).stdout,
    "already saved (reply 2)\n",
  );

  assert.equal((await roost("rename", "target", "renamed")).stdout, `renamed ${id} to renamed\n`);
  assert.deepEqual(await json("pin", "renamed"), { id, pinned: true });
  const pinnedFirst = await rows();
  assert.equal(pinnedFirst[0].id, id);
  assert.equal(pinnedFirst[0].pending, 2);
  assert.equal((await roost("pin", id, "--off")).stdout, `unpinned ${id}\n`);
});
