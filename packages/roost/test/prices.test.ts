// The price table and `roost usage`'s report: pure logic beside the end-to-end test in usage-cost.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseSince, usageReport, usageTable } from "../src/cli/usage-report.js";
import { checkConfig } from "../src/home/config-check.js";
import { costOf, DEFAULT_PRICES, pricedUsage, priceOf, readPrices } from "../src/home/prices.js";
import type { JobRow } from "../src/protocol/rows.js";

const dir = mkdtempSync(join(tmpdir(), "roost-prices-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a model's price: its own entry, else the longest prefix that matches; none is null", () => {
  const table = {
    "gpt-5*": { input: 1, output: 2 },
    "gpt-5-mini*": { input: 3, output: 4 },
    o3: { input: 5, output: 6 },
  };
  assert.equal(priceOf("gpt-5.1-codex", table)?.input, 1);
  assert.equal(priceOf("gpt-5-mini-2026", table)?.input, 3);
  assert.equal(priceOf("o3", table)?.input, 5);
  assert.equal(priceOf("o3-pro", table), null, "an id without * matches itself alone");
  assert.equal(priceOf(null, table), null);
  assert.equal(priceOf("claude-sonnet-4-6", DEFAULT_PRICES)?.input, 3);
});

test("a cost: each count at its price per million, cache counts at the input's when not priced apart", () => {
  const usage = { input: 1000, output: 200, cacheRead: 5000, cacheWrite: 100 };
  assert.equal(costOf(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }), 0.007875);
  assert.equal(costOf(usage, { input: 2, output: 10 }), 0.0142);
  assert.deepEqual(
    pricedUsage({ ...usage, cost: 9 }, "claude-opus-4", DEFAULT_PRICES)?.cost,
    9,
    "an agent's own cost stays",
  );
  assert.equal(pricedUsage(usage, "unknown-model", DEFAULT_PRICES)?.cost, undefined);
  assert.equal(pricedUsage(null, "claude-opus-4", DEFAULT_PRICES), null);
});

test("roost.json's prices go over the defaults; a bad table is a finding naming the key, and the defaults hold", () => {
  const file = join(dir, "roost.json");
  writeFileSync(
    file,
    JSON.stringify({ prices: { "claude-opus-*": { input: 1, output: 1 }, mine: { input: 0, output: 0 } } }),
  );
  const table = readPrices(file);
  assert.equal(table["claude-opus-*"]?.input, 1);
  assert.equal(table.mine?.output, 0);
  assert.equal(table["claude-haiku-*"]?.input, 1);
  writeFileSync(file, JSON.stringify({ prices: { mine: { input: -1, output: 2 } } }));
  assert.equal(readPrices(file), DEFAULT_PRICES);
  const findings = checkConfig(dir);
  assert.ok(
    findings.some((f) => f.key.startsWith("prices")),
    JSON.stringify(findings),
  );
});

function row(id: string, profile: string, createdAt: string, usage: JobRow["usage"]): JobRow {
  return { id, name: `n-${id}`, profile, createdAt, usage } as JobRow;
}

test("the report sums by session, profile or day, counts unknown and unpriced usage apart, and --since cuts by start", () => {
  const rows = [
    row("a", "claude", "2026-12-01T10:00:00Z", {
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      cost: 0.5,
    }),
    row("b", "codex", "2026-12-02T10:00:00Z", { input: 1, output: 1, cacheRead: 2, cacheWrite: 0 }),
    row("c", "claude", "2026-12-02T11:00:00Z", null),
    row("d", "claude", "2026-12-01T12:00:00Z", {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cost: 0.25,
    }),
  ];
  const byProfile = usageReport(rows, "profile", null);
  assert.deepEqual(
    byProfile.groups.map((g) => [g.key, g.sessions, g.input, g.cost, g.unpriced, g.unknown]),
    [
      ["claude", 3, 10, 0.75, 0, 1],
      ["codex", 1, 1, 0, 1, 0],
    ],
  );
  assert.deepEqual(byProfile.total.cost, 0.75);
  const byDay = usageReport(rows, "day", null);
  assert.deepEqual(
    byDay.groups.map((g) => g.key),
    ["2026-12-01", "2026-12-02"],
  );
  const since = usageReport(rows, "session", { text: "2026-12-02", ms: parseSince("2026-12-02")! });
  assert.deepEqual(
    since.groups.map((g) => g.key),
    ["n-b (b)", "n-c (c)"],
  );
  const table = usageTable(byProfile);
  assert.match(table, /^codex\s+1\s+1\s+1\s+2\s+0\s+—$/m);
  assert.match(table, /1 session with no price for its model/);
  assert.match(table, /1 session whose usage is not known/);
});

test("--since takes a day or an ISO time, nothing else", () => {
  assert.equal(parseSince("2026-12-02"), new Date(2026, 11, 2).getTime());
  assert.equal(parseSince("2026-12-02T10:00:00Z"), Date.parse("2026-12-02T10:00:00Z"));
  for (const bad of ["yesterday", "2026-02-30", "2026-13-01", ""]) assert.equal(parseSince(bad), null, bad);
});
