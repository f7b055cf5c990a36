import assert from "node:assert/strict";
import { test } from "node:test";
import { cliHome } from "./helpers/cli.js";

const cli = cliHome("roost-cli-lifecycle-");
const { roost, json, rows } = cli;

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
