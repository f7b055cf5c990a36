import assert from "node:assert/strict";
import { test } from "node:test";
import { cliHome } from "./helpers/cli.js";

const cli = cliHome("roost-cli-jobs-");
const { roost, json, rows } = cli;

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
