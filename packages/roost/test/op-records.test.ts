// Each op is one record in the protocol: its argument schema (checked before anything runs), its
// result and who may call it. These are the pure parts: the schemas at their edges, the words a
// refusal names the field with, the callers, and what an op that fails unexpectedly leaves behind.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Caller } from "../src/daemon/caller.js";
import { checkedArgs } from "../src/daemon/op-args.js";
import type { OpContext } from "../src/daemon/ops/context.js";
import { refusal, route } from "../src/daemon/router.js";
import { LIMITS, OPS, type OpName, RoostError } from "../src/protocol/index.js";

/** The `bad_request` text for these arguments, or "ok" when they pass. */
function verdict(op: OpName, args: unknown): string {
  try {
    checkedArgs(op, args);
    return "ok";
  } catch (err) {
    assert.ok(err instanceof RoostError, String(err));
    assert.equal(err.code, "bad_request");
    return err.message;
  }
}

test("every limit an op's arguments have is taken at its edge and refused one past it, naming the field", () => {
  const edges: [OpName, (n: number) => object, number, string][] = [
    [
      "reply",
      (n) => ({ id: "j", text: "t".repeat(n) }),
      LIMITS.replyText,
      "text is longer than 100000 characters",
    ],
    [
      "reply",
      (n) => ({ id: "j", question: "q".repeat(n) }),
      LIMITS.question,
      "question is longer than 2000 characters",
    ],
    [
      "dispatch",
      (n) => ({ profile: "p", task: "t".repeat(n) }),
      LIMITS.replyText,
      "task is longer than 100000",
    ],
    ["send", (n) => ({ to: "a", message: "m".repeat(n) }), LIMITS.message, "message is longer than 8000"],
    [
      "handback",
      (n) => ({ state: "done", result: "r".repeat(n) }),
      LIMITS.handbackResult,
      "result is longer than 6000",
    ],
    ["spawn", (n) => ({ task: "t", model: "m".repeat(n) }), LIMITS.model, "model is longer than 200"],
    [
      "spawn",
      (n) => ({ task: "t", thinking: "m".repeat(n) }),
      LIMITS.thinking,
      "thinking is longer than 100",
    ],
    ["task", (n) => ({ action: "add", title: "t".repeat(n) }), 500, "title is longer than 500"],
    ["task", (n) => ({ action: "add", detail: "d".repeat(n) }), 8000, "detail is longer than 8000"],
    ["task", (n) => ({ action: "add", after: Array(n).fill(1) }), 50, "after has more than 50 items"],
    ["resume", (n) => ({ ids: Array(n).fill("j") }), LIMITS.resumeJobs, "ids has more than 100 items"],
    [
      "attach-input",
      (n) => ({ id: "j", data: "k".repeat(n) }),
      LIMITS.replyText,
      "data is longer than 100000",
    ],
    [
      "schedule-add",
      (n) => ({ when: "w".repeat(n), launch: { profile: "p" } }),
      200,
      "when is longer than 200",
    ],
    [
      "peer_register",
      (n) => ({ session: "s".repeat(n), name: "n", cwd: "/", pid: 1 }),
      LIMITS.session,
      "session is longer than 4096",
    ],
  ];
  for (const [op, args, limit, refused] of edges) {
    assert.equal(verdict(op, args(limit)), "ok", `${op} at ${limit}`);
    assert.match(verdict(op, args(limit + 1)), new RegExp(`^${refused}`), `${op} past ${limit}`);
  }
});

test("counts and sizes: each bound is in, one past it is out", () => {
  const bounds: [OpName, (n: number) => object, number, number, RegExp][] = [
    ["describe", (n) => ({ id: "j", lines: n }), 1, 200, /^lines must be an integer from 1 to 200$/],
    ["events", (n) => ({ limit: n }), 1, LIMITS.eventsKept, /^limit must be an integer from 1 to 1000$/],
    ["attach", (n) => ({ id: "j", cols: n, rows: 24 }), 2, 1000, /^cols must be an integer from 2 to 1000$/],
    [
      "attach-resize",
      (n) => ({ id: "j", cols: 80, rows: n }),
      2,
      500,
      /^rows must be an integer from 2 to 500$/,
    ],
  ];
  for (const [op, args, low, high, refused] of bounds) {
    for (const n of [low, high]) assert.equal(verdict(op, args(n)), "ok", `${op} ${n}`);
    for (const n of [low - 1, high + 1]) assert.match(verdict(op, args(n)), refused, `${op} ${n}`);
  }
});

test("wrong types are refused naming the field; nothing is coerced, unknown fields are ignored", () => {
  const wrong: [OpName, unknown, RegExp][] = [
    ["pin", { id: 42 }, /^id must be a job id or name$/],
    ["stop", {}, /^id must be a job id or name$/],
    ["hello", { protocol: "1" }, /^protocol must be a positive integer$/],
    ["hello", { protocol: 1, capabilities: "all" }, /^capabilities must be an array, each a string$/],
    ["hello", { protocol: 1, agent: { name: 5 } }, /^agent\.name must be a string$/],
    ["ack", { id: "j", token: "t", seq: 0 }, /^seq must be a positive integer$/],
    ["ack", { id: "j", token: "t", seq: 1.5 }, /^seq must be a positive integer$/],
    ["report", { id: "j", token: "t", report: [] }, /^report must be an object$/],
    ["report", { id: "j", report: {} }, /^token must be a string$/],
    ["reply", { id: "j", text: "x", mode: "sideways" }, /^mode must be one of steer, followUp$/],
    ["reply", { id: "j", requestId: "has space" }, /^requestId must be 1-64 of/],
    ["task", { action: "done", id: "abc" }, /^id must be a positive integer \(or a string of digits\)$/],
    ["task", { action: "done", id: 0 }, /^id must be a positive integer/],
    ["task", { action: "nope" }, /^action must be one of list, add, claim/],
    ["watch", { id: "a", when: "soon" }, /^when must be one of idle, ended$/],
    ["schedule-add", { when: 42, launch: { profile: "p" } }, /^when must be a non-empty string$/],
    ["schedule-add", { when: "daily 10:00" }, /^launch must be a dispatch's arguments/],
    [
      "schedule-add",
      { when: "daily 10:00", launch: { profile: "" } },
      /^launch\.profile must be a non-empty string$/,
    ],
    ["events", { after: -1 }, /^after must be an integer of at least 0$/],
    ["list", [1, 2], /^args must be an object$/],
    ["list", "x", /^args must be an object$/],
  ];
  for (const [op, args, refused] of wrong)
    assert.match(verdict(op, args), refused, `${op} ${JSON.stringify(args)}`);
  // Strings of digits stay strings, numbers stay numbers: the handler sees what was sent.
  const args = { action: "claim", id: "7", extra: { ignored: true } };
  assert.equal(checkedArgs("task", args), args);
  assert.deepEqual(args, { action: "claim", id: "7", extra: { ignored: true } });
  assert.equal(verdict("ack", { id: "j", token: "t", seq: "1" }), "seq must be a positive integer");
  // Left out and null both mean "not given"; no args at all is none given.
  assert.equal(verdict("describe", { id: "j", lines: null }), "ok");
  assert.equal(verdict("list", undefined), "ok");
  assert.equal(verdict("list", null), "ok");
});

test("numbers must be finite: 1e400 (Infinity once parsed) is refused where a number is asked", () => {
  const parsed = JSON.parse('{"id": "j", "token": "t", "seq": 1e400}');
  assert.equal(verdict("ack", parsed), "seq must be a positive integer");
  assert.equal(verdict("events", JSON.parse('{"after": 1e400}')), "after must be an integer of at least 0");
});

test("callers come from the op's record: the user's ops are refused on a session's connection, the feed too", () => {
  for (const op of Object.keys(OPS) as OpName[]) {
    const callers: readonly string[] = OPS[op].callers;
    // A connection that has not said who it is may call every op but the concierge's own.
    const conciergeOnly = callers.length === 1 && callers[0] === "concierge";
    assert.equal(refusal(op, "unidentified") === null, !conciergeOnly, op);
    assert.equal(refusal(op, "session") === null, callers.includes("session"), op);
    // The concierge is a session, and may also read the feed.
    assert.equal(
      refusal(op, "concierge") === null,
      callers.includes("session") || callers.includes("concierge"),
      op,
    );
  }
  assert.match(refusal("dispatch", "session") ?? "", /not for a session's connection/);
  assert.equal(refusal("events", "concierge"), null);
  assert.notEqual(refusal("events", "session"), null);
  for (const op of ["hello", "report", "ack", "task", "peers", "send", "spawn", "handback", "watch"] as const)
    assert.equal(refusal(op, "session"), null, op);
});

function fakeCaller(): Caller {
  return {
    connectionId: 1,
    role: "unidentified",
    jobId: null,
    hello: null,
    subscribed: false,
    inFlightPeak: 0,
    closed: false,
    send: () => {},
    sendEach: () => {},
    later: (fn) => fn(),
  };
}

test("a fault inside an op is logged with its stack, the op and the job; the client gets internal with a short text", async () => {
  const logged: string[] = [];
  const ctx = {
    jobs: {
      get: () => undefined,
      stop: () => {
        throw new TypeError("something broke");
      },
    },
  } as unknown as OpContext;
  await assert.rejects(
    async () => route(ctx, (line) => logged.push(line), fakeCaller(), "stop", { id: "abc123" }),
    (err: unknown) =>
      err instanceof RoostError &&
      err.code === "internal" &&
      err.message === "internal error in stop: something broke",
  );
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /^op stop failed \(job abc123\): TypeError: something broke\n\s+at /);
  // A wrong-typed field is refused before anything is looked up: the fault is never reached.
  await assert.rejects(
    async () => route(ctx, (line) => logged.push(line), fakeCaller(), "stop", { id: 7 }),
    (err: unknown) =>
      err instanceof RoostError && err.code === "bad_request" && /^id must be/.test(err.message),
  );
  await assert.rejects(
    async () => route(ctx, (line) => logged.push(line), fakeCaller(), "no-such-op", {}),
    (err: unknown) =>
      err instanceof RoostError && err.code === "bad_request" && /unknown op/.test(err.message),
  );
  assert.equal(logged.length, 1);
});
