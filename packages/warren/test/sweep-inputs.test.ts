import assert from "node:assert/strict";
import { test } from "node:test";
import { castMix, parseAgentMixes, SOLUTION_MIX } from "../src/sweep/agent-mix.js";
import { parseQueueUrl } from "../src/sweep/queue-url.js";
import { MAX_SWEEP_SEEDS, parseSeeds } from "../src/sweep/seed-range.js";
import { planRuns } from "../src/sweep/sweep-plan.js";

const BRIDGE_AGENTS = ["engineer-1", "courier-1", "lookout-1"];

test("--seeds: single seeds, ranges and lists; at most a million seeds, each up to 2^32-1", () => {
  assert.deepEqual(parseSeeds("7"), [7]);
  assert.deepEqual(parseSeeds("1-4"), [1, 2, 3, 4]);
  assert.deepEqual(parseSeeds("3-4,1,4"), [3, 4, 1], "each seed once, in the order given");
  assert.deepEqual(parseSeeds("4294967295"), [4294967295]);
  assert.throws(() => parseSeeds("4294967296"), /a seed is at most 4294967295/);
  assert.equal(parseSeeds(`1-${MAX_SWEEP_SEEDS}`).length, MAX_SWEEP_SEEDS);
  assert.throws(() => parseSeeds(`0-${MAX_SWEEP_SEEDS}`), /at most 1000000 seeds/);
  for (const bad of ["", "a", "1-", "-3", "1..3", "2-1"]) assert.throws(() => parseSeeds(bad), Error, bad);
});

test("an agents file: mixes are checked field by field", () => {
  const mixes = parseAgentMixes({
    mixes: [
      { name: "solution" },
      { name: "llm", remote: ["engineer-1"], command: ["agent", "{url}"], deadline_s: 30 },
    ],
  });
  assert.deepEqual(
    mixes.map((m) => m.name),
    ["solution", "llm"],
  );
  assert.deepEqual(parseAgentMixes([{ name: "bare-list" }]), [{ name: "bare-list" }]);
  const refused: [unknown, RegExp][] = [
    [{}, /at least one mix/],
    [{ mixes: [] }, /at least one mix/],
    [{ mixes: [{ name: "a b" }] }, /mixes\[0\]\.name must be 1 to 64 letters/],
    [{ mixes: [{ name: "a" }, { name: "a" }] }, /two mixes are named "a"/],
    [{ mixes: [{ name: "a", colour: "red" }] }, /unknown field "colour"/],
    [{ mixes: [{ name: "a", none: "lookout-1" }] }, /none must be a list of non-empty strings/],
    [
      { mixes: [{ name: "a", others: "clever" }] },
      /others must be one of "solution", "none", "noop", "random", "greedy"/,
    ],
    [{ mixes: [{ name: "a", greedy: "lookout-1" }] }, /greedy must be a list of non-empty strings/],
    [{ mixes: [{ name: "a", random: ["x"], noop: ["x"] }] }, /names agent "x" more than once/],
    [{ mixes: [{ name: "a", none: ["x"], solution: ["x"] }] }, /names agent "x" more than once/],
    [{ mixes: [{ name: "a", remote: ["x"] }] }, /needs a "command"/],
    [{ mixes: [{ name: "a", command: ["x"] }] }, /a "command" but no remote agents/],
    [{ mixes: [{ name: "a", remote: ["x"], command: ["c"], deadline_s: 0 }] }, /deadline_s must be/],
    [{ mixes: [{ name: "a", remote: ["x"], command: ["c"], deadline_s: 86_401 }] }, /at most 86400/],
    [{ mixes: [{ name: "a", pace: -1 }] }, /pace must be null or a positive number/],
  ];
  for (const [value, message] of refused)
    assert.throws(() => parseAgentMixes(value), message, JSON.stringify(value));
  assert.equal(
    parseAgentMixes({ mixes: [{ name: "a", remote: ["x"], command: ["c"], deadline_s: 86_400 }] }).length,
    1,
  );
});

test("casting a mix onto a scenario: remote agents, and a policy per other agent as warren run --policy gives", () => {
  assert.deepEqual(castMix(SOLUTION_MIX, "bridge_repair", BRIDGE_AGENTS), {
    remote: [],
    npcPolicy: { "engineer-1": "solution", "courier-1": "solution", "lookout-1": "solution" },
  });
  assert.deepEqual(castMix({ name: "m", none: ["lookout-1"] }, "bridge_repair", BRIDGE_AGENTS), {
    remote: [],
    npcPolicy: { "engineer-1": "solution", "courier-1": "solution", "lookout-1": "none" },
  });
  assert.deepEqual(
    castMix(
      { name: "m", others: "none", remote: ["engineer-1"], command: ["c"] },
      "bridge_repair",
      BRIDGE_AGENTS,
    ),
    { remote: ["engineer-1"], npcPolicy: { "courier-1": "none", "lookout-1": "none" } },
  );
  assert.deepEqual(
    castMix(
      { name: "m", others: "greedy", random: ["engineer-1"], noop: ["lookout-1"], solution: ["courier-1"] },
      "bridge_repair",
      BRIDGE_AGENTS,
    ),
    { remote: [], npcPolicy: { "engineer-1": "random", "courier-1": "solution", "lookout-1": "noop" } },
  );
  assert.deepEqual(castMix({ name: "m", others: "random" }, "bridge_repair", BRIDGE_AGENTS).npcPolicy, {
    "engineer-1": "random",
    "courier-1": "random",
    "lookout-1": "random",
  });
  assert.throws(
    () => castMix({ name: "m", none: ["farmer-1"] }, "bridge_repair", BRIDGE_AGENTS),
    /mix "m" names agent "farmer-1", which bridge_repair does not have/,
  );
  assert.throws(
    () => castMix({ name: "m", greedy: ["farmer-1"] }, "bridge_repair", BRIDGE_AGENTS),
    /mix "m" names agent "farmer-1"/,
  );
});

test("a plan lists every scenario x mix x seed once; a mix limited to scenarios skips the others", () => {
  const plan = planRuns(
    ["signal_relay", "bridge_repair", "signal_relay"],
    [2, 1],
    [SOLUTION_MIX, { name: "no-lookout", scenarios: ["bridge_repair"], none: ["lookout-1"] }],
  );
  assert.deepEqual(
    plan.map((s) => s.key),
    [
      "signal_relay/solution/2",
      "signal_relay/solution/1",
      "bridge_repair/solution/2",
      "bridge_repair/solution/1",
      "bridge_repair/no-lookout/2",
      "bridge_repair/no-lookout/1",
    ],
  );
  assert.throws(() => planRuns(["moon"], [1], [SOLUTION_MIX]), /there is no scenario "moon"/);
  assert.throws(
    () => planRuns(["bridge_repair"], [1], [{ name: "m", scenarios: ["moon"] }]),
    /unknown scenario "moon"/,
  );
  assert.throws(
    () => planRuns(["signal_relay"], [1], [{ name: "m", scenarios: ["bridge_repair"] }]),
    /no mix applies/,
  );
});

test("--queue URLs: redis:// and rediss://, with credentials and a database", () => {
  assert.deepEqual(parseQueueUrl("redis://10.0.0.5:6380"), {
    host: "10.0.0.5",
    port: 6380,
    maxRetriesPerRequest: null,
  });
  assert.deepEqual(parseQueueUrl("rediss://me:s%40cret@queue.example/2"), {
    host: "queue.example",
    port: 6379,
    username: "me",
    password: "s@cret",
    db: 2,
    tls: {},
    maxRetriesPerRequest: null,
  });
  assert.equal(parseQueueUrl("redis://[::1]:7000").host, "::1");
  assert.throws(() => parseQueueUrl("localhost:6379"), /redis:\/\/ or rediss:\/\//);
  assert.throws(() => parseQueueUrl("nonsense"), /must be a URL like redis:\/\/HOST:PORT/);
  assert.throws(() => parseQueueUrl("redis://h:1/x"), /database must be a number/);
});
