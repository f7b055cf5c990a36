// `roost reply NAME -` reads the reply from standard input, up to the protocol's limit; a reply of
// blanks alone is refused like an empty one.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LIMITS } from "../src/protocol/index.js";
import { startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { fixtureLog } from "./helpers/fixture-agents.js";

let daemon: TestDaemon;
let id: string;

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  const conn = await daemon.connect();
  id = (await conn.request("dispatch", { profile: "agent", name: "reader" })).result.id;
  conn.close();
});
after(() => daemon?.stop());

test("a reply from standard input: the limit's length is taken whole, one more is refused", async () => {
  const atLimit = "x".repeat(LIMITS.replyText - 1) + "!";
  const saved = await daemon.cli(["reply", "reader", "-"], {}, `${atLimit}\n`);
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stdout, /^saved reply \d+/);
  const got = await waitFor("the reply delivered", async () =>
    fixtureLog(daemon, id, "received.jsonl").find((e) => e.text?.endsWith("!")),
  );
  assert.equal(got.text, atLimit, "whole, its last newline aside");

  const over = await daemon.cli(["reply", "reader", "-"], {}, "y".repeat(LIMITS.replyText + 1));
  assert.equal(over.code, 1);
  assert.match(over.stderr, /^roost reply: bad_request: .*text/);
  assert.equal(fixtureLog(daemon, id, "received.jsonl").filter((e) => e.text?.startsWith("y")).length, 0);
});

test("a reply of blanks alone is refused as an empty one is, from the command line and from stdin", async () => {
  for (const [args, input] of [
    [["reply", "reader", "   "], undefined],
    [["reply", "reader", ""], undefined],
    [["reply", "reader", "-"], " \n\t\n"],
  ] as const) {
    const refused = await daemon.cli([...args], {}, input);
    assert.equal(refused.code, 1, `${JSON.stringify(args)} ${JSON.stringify(input)}`);
    assert.match(
      refused.stderr,
      /^roost reply: bad_request: text must be a non-empty string, not only blanks/,
    );
  }
});
