import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";

let suite: PiSuite;

before(async () => {
  suite = await startPiSuite((request) => {
    if (request.last.includes("ask me")) return { text: "Which file should I fix?" };
    return { text: `answer to: ${request.last}` };
  });
});
after(() => suite?.close());

test("a pi job takes its task as reply 1 and its row goes to blocked with the question", {
  timeout: PI_WAIT_MS * 2,
}, async () => {
  const { id } = await suite.dispatch("please ask me something");
  const row = await suite.row(
    id,
    (r) => r.state === "blocked" && r.waitingFor === "question",
    "the question",
  );
  assert.equal(row.question, "Which file should I fix?");
  assert.equal(row.model, "fake/fake-model");
  assert.equal(row.pending, 0);
  assert.ok(row.context && row.context.window === 128000, JSON.stringify(row.context));
  assert.ok(suite.model.requests.some((r) => r.last === "please ask me something"));
});
