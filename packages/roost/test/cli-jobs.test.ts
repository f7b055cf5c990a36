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

test("reply to a terminal job asking nothing: held, said so; --send-held keeps it held, --drop-held drops it", async () => {
  await json("dispatch", "sleeper", "--name", "quiet");
  const held = await roost("reply", "quiet", "y");
  assert.equal(held.code, 0, held.stderr);
  assert.equal(
    held.stdout,
    "held: quiet asks nothing now, so the reply was not typed; when it asks, send it with roost reply quiet --send-held (or --drop-held)\n",
  );
  assert.deepEqual(await json("reply", "quiet", "--send-held"), { held: true, saved: false });
  assert.equal((await roost("reply", "quiet", "--drop-held")).stdout, "dropped the reply held for quiet\n");
  const none = await roost("reply", "quiet", "--drop-held");
  assert.equal(none.code, 1);
  assert.match(none.stderr, /bad_request: job \w+ holds no reply/);
  const both = await roost("reply", "quiet", "y", "--send-held");
  assert.match(
    both.stderr,
    /reply takes a TEXT \(or - to read it from standard input\), or --send-held, or --drop-held/,
  );
});
