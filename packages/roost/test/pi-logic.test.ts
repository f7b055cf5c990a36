import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { takeJobIdentity } from "../src/pi/job-identity.js";
import { readPiSettings } from "../src/pi/roost-settings.js";
import { RunCauses } from "../src/pi/run-causes.js";
import { contextOf, runOutcome } from "../src/pi/run-outcome.js";
import { REPLY_ENTRY_TYPE, SessionLedger } from "../src/pi/session-ledger.js";
import { agentMessageTitle, envelopeBody } from "../src/protocol/agent-message.js";

const assistant = (text: string, extra: Record<string, unknown> = {}) => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stopReason: "stop",
  ...extra,
});

test("a run's outcome: done, a question when its last paragraph asks, failed with pi's error, aborted", () => {
  assert.deepEqual(runOutcome([{ role: "user" }, assistant("All fixed.")]), {
    state: "done",
    text: "All fixed.",
    question: null,
    error: null,
    aborted: false,
  });
  const asks = runOutcome([assistant("I looked at it.\n\nWhich file should I fix?")]);
  assert.equal(asks.state, "blocked");
  assert.equal(asks.question, "I looked at it.\n\nWhich file should I fix?");
  assert.equal(runOutcome([assistant("Is it? No.\n\nDone.")]).state, "done");
  const failed = runOutcome([assistant("", { stopReason: "error", errorMessage: "429 rate limited" })]);
  assert.deepEqual([failed.state, failed.error], ["failed", "429 rate limited"]);
  const aborted = runOutcome([assistant("Shall I?", { stopReason: "aborted" })]);
  assert.deepEqual([aborted.state, aborted.aborted], ["done", true]);
});

test("context: pi's usage as tokens, window and percent; unknown right after a compaction", () => {
  assert.deepEqual(contextOf({ tokens: 1010, contextWindow: 128000, percent: 0.7890625 }), {
    tokens: 1010,
    window: 128000,
    percent: 0.8,
  });
  assert.equal(contextOf({ tokens: null, contextWindow: 128000, percent: null }), null);
  assert.equal(contextOf(undefined), null);
});

test("run causes: what started a run, raised by a user reply that joined it; a person's typing is the user's", () => {
  const causes = new RunCauses();
  causes.starting("parent");
  causes.began();
  assert.equal(causes.ended(), "parent");
  causes.starting("agent");
  causes.began();
  causes.joined("user", true);
  assert.equal(causes.ended(), "user");
  causes.starting("agent");
  causes.began();
  causes.joined("parent", true);
  assert.equal(causes.ended(), "parent");
  causes.began();
  assert.equal(causes.ended(), "user");
});

test("the session ledger drops an item whose seq is in the session, and replies up to the last taken", () => {
  const dir = mkdtempSync(join(tmpdir(), "roost-ledger-"));
  try {
    const ledger = new SessionLedger(dir);
    ledger.readSession([
      { type: "custom_message", customType: "pi-roost-agent-message", details: { seq: 7 } },
      { type: "custom_message", customType: "something-else", details: { seq: 8 } },
      { type: "custom", customType: REPLY_ENTRY_TYPE, data: { seq: 3 } },
    ]);
    assert.equal(ledger.isFinished(7, true), true);
    assert.equal(ledger.isFinished(8, true), false);
    assert.equal(ledger.isFinished(3, false), true);
    assert.equal(ledger.isFinished(4, false), false);
    ledger.record(9, true);
    assert.equal(ledger.isFinished(9, true), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the framed block: its title, and the body without the envelope's lines", () => {
  assert.equal(
    agentMessageTitle({ from: "Checkout refactor", relation: "child", kind: "report" }),
    "✉ report from Checkout refactor (child)",
  );
  const framed =
    '<agent-message from="a" id="b" relation="child" kind="report">\nstate: done\n\nall good\n</agent-message>\nThis comes from another agent session.';
  assert.equal(envelopeBody(framed), "state: done\n\nall good");
  assert.equal(envelopeBody("plain text"), "plain text");
});

test("the job's token is taken out of the environment once read, by both its names, and kept for the next load", () => {
  const env: NodeJS.ProcessEnv = {
    ROOST_JOB_ID: "j1",
    ROOST_JOB_TOKEN: "secret",
    PI_JOB_TOKEN: "secret",
    ROOST_SOCKET: "/s",
    ROOST_JOB_DIR: "/d",
  };
  const keeper = {};
  assert.deepEqual(takeJobIdentity(env, keeper), { id: "j1", token: "secret", socket: "/s", dir: "/d" });
  assert.equal(env.ROOST_JOB_TOKEN, undefined);
  assert.equal(env.PI_JOB_TOKEN, undefined);
  assert.equal(env.ROOST_JOB_ID, "j1");
  // pi loads the extension again on /new: the identity taken before is kept in the process.
  assert.deepEqual(takeJobIdentity(env, keeper), { id: "j1", token: "secret", socket: "/s", dir: "/d" });
  assert.equal(takeJobIdentity({}, {}), undefined);
});

test("agentTools: on unless roost.json says false", () => {
  const home = mkdtempSync(join(tmpdir(), "roost-settings-"));
  try {
    assert.deepEqual(readPiSettings(home), { agentTools: true });
    writeFileSync(join(home, "roost.json"), JSON.stringify({ agentTools: false }));
    assert.deepEqual(readPiSettings(home), { agentTools: false });
    writeFileSync(join(home, "roost.json"), "not json");
    assert.deepEqual(readPiSettings(home), { agentTools: true });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
