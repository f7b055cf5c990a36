import assert from "node:assert/strict";
import { test } from "node:test";
import {
  foldName,
  jobEnvironment,
  jobIdentityFromEnv,
  LineDecoder,
  LineTooLongError,
  normalizeReport,
  RoostError,
} from "../src/protocol/index.js";

test("the line decoder splits across chunks and refuses a line over its limit", () => {
  const d = new LineDecoder(10);
  assert.deepEqual(d.push(Buffer.from('{"a"')), []);
  assert.deepEqual(d.push(Buffer.from(":1}\n{}\nxy")), ['{"a":1}', "{}"]);
  assert.deepEqual(d.push(Buffer.from("z\n")), ["xyz"]);
  assert.deepEqual(new LineDecoder(10).push(Buffer.from("0123456789\n")), ["0123456789"]);
  assert.throws(() => new LineDecoder(10).push(Buffer.from("0123456789A\n")), LineTooLongError);
  const split = new LineDecoder(10);
  split.push(Buffer.from("012345"));
  assert.throws(() => split.push(Buffer.from("67890")), LineTooLongError);
});

test("a report is filled with defaults, cut to its limits, and refused when a type is wrong", () => {
  const r = normalizeReport({ summary: "x".repeat(600), choices: ["a", "b".repeat(300)], extra: 1 });
  assert.equal(r.state, "working");
  assert.equal(r.summary?.length, 500);
  assert.equal(r.choices[1]?.length, 200);
  assert.equal(r.question, null);
  assert.equal(normalizeReport({ question: "q".repeat(2001) }).question?.length, 2000);
  assert.equal(normalizeReport({ choices: Array(25).fill("c") }).choices.length, 20);
  assert.equal(normalizeReport({ name: "two\nlines" }).name, "two lines");
  for (const bad of [
    { state: "sleeping" },
    { summary: 3 },
    { choices: "a" },
    { agentItems: "yes" },
    null,
    [],
  ]) {
    assert.throws(
      () => normalizeReport(bad),
      (e: unknown) => e instanceof RoostError && e.code === "bad_request",
    );
  }
});

test("names fold to one line", () => {
  assert.equal(foldName("a\r\n\tb  c\u2028d"), "a b c d");
});

test("the job's identity reads the new names first and falls back to the older ones", () => {
  const identity = { id: "j1", token: "t", socket: "/s", dir: "/d" };
  const env = jobEnvironment(identity);
  assert.equal(env.ROOST_JOB_ID, "j1");
  assert.equal(env.PI_DAEMON_SOCK, "/s");
  assert.deepEqual(jobIdentityFromEnv(env), identity);
  assert.deepEqual(
    jobIdentityFromEnv({ PI_JOB_ID: "old", PI_JOB_TOKEN: "t", PI_DAEMON_SOCK: "/s", PI_JOB_DIR: "/d" }),
    {
      id: "old",
      token: "t",
      socket: "/s",
      dir: "/d",
    },
  );
  assert.equal(jobIdentityFromEnv({ ...env, ROOST_JOB_ID: "new" })?.id, "new");
  assert.equal(jobIdentityFromEnv({}), undefined);
});
