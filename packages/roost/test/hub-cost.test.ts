// What the hub says of cost: a row's so far beside its model, the fleet's today in the title, a
// session's usage in words (its details show that line).
import assert from "node:assert/strict";
import { test } from "node:test";
import { initialHubState } from "../src/hub/hub-state.js";
import { renderHub } from "../src/hub/hub-view.js";
import { agentMeta } from "../src/hub/row-view.js";
import type { JobRow } from "../src/protocol/rows.js";
import { costToday, dollars, usageLine } from "../src/protocol/usage-text.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");
const usage = (cost?: number) => ({
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  ...(cost === undefined ? {} : { cost }),
});
const at = (ms: number) => new Date(ms).toISOString();

test("a row shows its cost so far after its model and context; the model's id gives way, the cost never", () => {
  const context = { tokens: 51200, window: 128000, percent: 40.2 };
  assert.equal(
    agentMeta(jobRow("a", { model: "fake/fake-model", context, usage: usage(0.5) })),
    "fake-model 40% $0.50 ",
  );
  assert.equal(
    agentMeta(jobRow("a", { model: "fake/fake-model", context, usage: usage() })),
    "fake-model 40% ",
  );
  const long = agentMeta(
    jobRow("a", { model: "a-very-long-model-name-for-this-column", usage: usage(12.34) }),
  );
  assert.ok(long.endsWith(" $12.34 "), long);
  assert.ok(long.length <= 31, long);
});

test("the title says what the sessions begun today cost; none with a cost, nothing is said", () => {
  const rows: JobRow[] = [
    jobRow("a", { createdAt: at(NOW - 60_000), usage: usage(0.25) }),
    jobRow("b", { createdAt: at(NOW - 120_000), usage: usage(0.5) }),
    jobRow("c", { createdAt: at(NOW - 2 * 86_400_000), usage: usage(100) }),
    jobRow("d", { createdAt: at(NOW - 60_000), usage: usage() }),
  ];
  assert.equal(costToday(rows, NOW), 0.75);
  const state = initialHubState();
  state.connection = "connected";
  state.rows = new Map(rows.map((r) => [r.id, r]));
  assert.match(plain(renderHub(state, 120, 35, NOW)[0]!), /· \$0\.75 today/);
  state.rows = new Map([["d", rows[3]!]]);
  assert.doesNotMatch(plain(renderHub(state, 120, 35, NOW)[0]!), /today/);
});

test("usage in words: every count and the cost, or that its model has no price", () => {
  assert.equal(usageLine(usage(0.000105)), "10 in · 5 out · 0 cache read · 0 cache write · $0.000105");
  assert.equal(usageLine(usage()), "10 in · 5 out · 0 cache read · 0 cache write · no price for its model");
  assert.equal(dollars(0), "$0.00");
  assert.equal(dollars(3.456), "$3.46");
});
