// Budgets apart from the daemon: what a session's and a day's spend is, when a budget is passed
// (past its limit, not at it), once-per-crossing, the words they are told in, roost.json's
// `budgets` read and checked, and the day's counts kept in a real store across a restart and a
// midnight. The daemon's side runs the real Claude Code in budgets.test.ts.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  budgetName,
  Crossings,
  grownBy,
  highest,
  isPassed,
  NO_SPEND,
  passedText,
  spendOf,
  standings,
} from "../src/daemon/budgets/budget-rules.js";
import { DayUsage } from "../src/daemon/budgets/day-usage.js";
import { Store } from "../src/daemon/store/store.js";
import { type Budget, MAX_BUDGETS, readBudgets } from "../src/home/budgets.js";
import { checkConfig } from "../src/home/config-check.js";

const dir = mkdtempSync(join(tmpdir(), "roost-budgets-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const tokens = (n: number, per: Budget["per"] = "session", more: Partial<Budget> = {}): Budget => ({
  tokens: n,
  per,
  action: "stop",
  ...more,
});

test("a spend is every kind of token and the priced cost; what it grew by is never below nothing", () => {
  const usage = { input: 10, output: 5, cacheRead: 100, cacheWrite: 7 };
  assert.deepEqual(spendOf(usage), { tokens: 122, cost: 0 }, "no price: no cost, its tokens count");
  assert.deepEqual(spendOf({ ...usage, cost: 0.25 }), { tokens: 122, cost: 0.25 });
  assert.deepEqual(spendOf(null), NO_SPEND);
  assert.deepEqual(grownBy({ tokens: 100, cost: 0.1 }, { tokens: 130, cost: 0.3 }), {
    tokens: 30,
    cost: 0.2,
  });
  // A record read again from its start: a count below what was counted adds nothing.
  assert.deepEqual(grownBy({ tokens: 100, cost: 0.1 }, { tokens: 40, cost: 0.05 }), NO_SPEND);
  assert.deepEqual(highest({ tokens: 100, cost: 0.1 }, { tokens: 40, cost: 0.3 }), {
    tokens: 100,
    cost: 0.3,
  });
});

test("a budget is passed past its limit, not at it", () => {
  assert.equal(isPassed(tokens(20), { tokens: 20, cost: 9 }), false);
  assert.equal(isPassed(tokens(20), { tokens: 21, cost: 0 }), true);
  const dollars: Budget = { cost: 5, per: "day", action: "notify" };
  assert.equal(isPassed(dollars, { tokens: 1e9, cost: 5 }), false);
  assert.equal(isPassed(dollars, { tokens: 0, cost: 5.000001 }), true);
});

test("standings: a budget counts its profile's sessions, a per-session one by the session, a per-day one by the day", () => {
  const budgets: Budget[] = [
    tokens(20),
    tokens(100, "day"),
    { cost: 1, per: "day", action: "notify", profile: "codex" },
    tokens(50, "day", { profile: "claude" }),
  ];
  const day = (profile: string | undefined) =>
    profile === undefined ? { tokens: 90, cost: 0 } : { tokens: 60, cost: 2 };
  const of = (profile: string, session: number) =>
    standings(budgets, profile, { tokens: session, cost: 0 }, day).map((s) => [s.index, s.passed]);
  assert.deepEqual(of("claude", 21), [
    [0, true],
    [1, false],
    [3, true],
  ]);
  assert.deepEqual(of("codex", 20), [
    [0, false],
    [1, false],
    [2, true],
  ]);
});

test("a budget in words: its limit, its period, whose sessions; passed, what it counted and its place", () => {
  assert.equal(budgetName(tokens(200_000)), "200,000 tokens a session");
  assert.equal(
    budgetName({ cost: 5, per: "day", action: "notify", profile: "claude" }),
    "$5.00 a day for the claude sessions",
  );
  assert.equal(
    passedText({ budget: tokens(20), index: 0, spend: { tokens: 30, cost: 0 }, passed: true }),
    "over its budget of 20 tokens a session (30 tokens used; budgets[0] in roost.json)",
  );
  assert.equal(
    passedText({
      budget: { cost: 5, per: "day", action: "stop" },
      index: 2,
      spend: { tokens: 0, cost: 5.5 },
      passed: true,
    }),
    "over the budget of $5.00 a day ($5.50 used today by the fleet; budgets[2] in roost.json)",
  );
});

test("a crossing is news once, and again only after its scope came back under the budget", () => {
  const crossings = new Crossings();
  assert.equal(crossings.crossed("job", "k", false), false);
  assert.equal(crossings.crossed("job", "k", true), true);
  assert.equal(crossings.crossed("job", "k", true), false, "still past it: no news");
  assert.equal(crossings.crossed("job", "other", true), true, "another budget is its own crossing");
  assert.equal(crossings.crossed("other job", "k", true), true, "another scope too");
  crossings.crossed("job", "k", false);
  assert.equal(crossings.crossed("job", "k", true), true, "under it, then past it again");
  crossings.forget("job");
  assert.equal(crossings.crossed("job", "other", true), true);
});

test("roost.json's budgets: none without them, null when bad (the last good ones hold), at most 100", () => {
  const file = join(dir, "roost.json");
  assert.deepEqual(readBudgets(join(dir, "none.json")), []);
  writeFileSync(file, JSON.stringify({ agentMaxDepth: 2 }));
  assert.deepEqual(readBudgets(file), []);
  const good = [tokens(200_000), { cost: 5, per: "day", action: "notify", profile: "claude" }];
  writeFileSync(file, JSON.stringify({ budgets: good }));
  assert.deepEqual(readBudgets(file), good);
  writeFileSync(file, JSON.stringify({ budgets: [{ tokens: 5, cost: 1, per: "day", action: "stop" }] }));
  assert.equal(readBudgets(file), null, "tokens and cost both");
  writeFileSync(file, "{not json");
  assert.equal(readBudgets(file), null);
  writeFileSync(file, JSON.stringify({ budgets: Array.from({ length: MAX_BUDGETS }, () => tokens(1)) }));
  assert.equal(readBudgets(file)?.length, MAX_BUDGETS);
  writeFileSync(file, JSON.stringify({ budgets: Array.from({ length: MAX_BUDGETS + 1 }, () => tokens(1)) }));
  assert.equal(readBudgets(file), null);
});

test("a bad budget is a finding at the key of the bad field, saying what it must be", () => {
  const cases: [unknown, string, RegExp][] = [
    [{ a: 1 }, "budgets", /budgets must be an array of at most 100 budgets/],
    [[tokens(0)], "budgets[0].tokens", /budgets\[0\]\.tokens must be a whole number of tokens, 1 or more/],
    [[tokens(1.5)], "budgets[0].tokens", /must be a whole number of tokens/],
    [
      [{ cost: 0, per: "day", action: "stop" }],
      "budgets[0].cost",
      /must be an amount in US dollars, more than 0/,
    ],
    [
      [tokens(5), { tokens: 5, per: "week", action: "stop" }],
      "budgets[1].per",
      /budgets\[1\]\.per must be one of session, day/,
    ],
    [[{ tokens: 5, per: "day", action: "kill" }], "budgets[0].action", /must be one of stop, notify/],
    [[{ per: "day", action: "stop" }], "budgets[0]", /budgets\[0\] must give one of tokens or cost/],
    [[{ tokens: 5, cost: 1, per: "day", action: "stop" }], "budgets[0]", /must give one of tokens or cost/],
    [
      [tokens(5, "day", { profile: "nope" })],
      "budgets[0].profile",
      /must be one of the profiles \(.*claude.*\), not "nope"/,
    ],
    [
      [{ ...tokens(5), profle: "claude" }],
      "budgets[0].profle",
      /budgets\[0\]\.profle is not a key it takes \(tokens, cost, per, action, profile\)/,
    ],
    [Array.from({ length: MAX_BUDGETS + 1 }, () => tokens(1)), "budgets", /at most 100 budgets/],
  ];
  for (const [budgets, key, message] of cases) {
    writeFileSync(join(dir, "roost.json"), JSON.stringify({ budgets }));
    const findings = checkConfig(dir);
    assert.deepEqual(
      findings.map((f) => f.key),
      [key],
      JSON.stringify(budgets),
    );
    assert.match(findings[0]!.message, message);
  }
  writeFileSync(
    join(dir, "roost.json"),
    JSON.stringify({
      agentProfiles: { mine: { command: ["true"], task: "argv" } },
      budgets: [tokens(5, "day", { profile: "mine" }), tokens(5, "session", { profile: "claude" })],
    }),
  );
  assert.deepEqual(checkConfig(dir), [], "a profile of the file's own and a built-in one");
});

test("the day's spend: by profile and the fleet's, kept in the store across a restart, begun anew past local midnight", async () => {
  const file = join(dir, "days.db");
  let now = new Date(2026, 11, 2, 23, 59).getTime();
  const store = new Store(file);
  const day = new DayUsage(store, () => now);
  day.add("claude", { tokens: 30, cost: 0.1 });
  day.add("codex", { tokens: 5, cost: 0 });
  day.add("claude", { tokens: 10, cost: 0.05 });
  assert.deepEqual(day.of("claude"), { tokens: 40, cost: 0.15 });
  assert.deepEqual(day.of(undefined), { tokens: 45, cost: 0.15 });
  assert.deepEqual(day.of("pi"), NO_SPEND);
  await store.close();

  const again = new Store(file);
  try {
    const kept = new DayUsage(again, () => now);
    assert.deepEqual(kept.of(undefined), { tokens: 45, cost: 0.15 }, "the same day, after a restart");
    assert.equal(kept.today(), "2026-12-02");
    now = new Date(2026, 11, 3, 0, 1).getTime();
    assert.equal(kept.today(), "2026-12-03");
    assert.deepEqual(kept.of(undefined), NO_SPEND, "a new day from nothing");
    kept.add("claude", { tokens: 7, cost: 0 });
    await again.committed();
    const rows = again.database.prepare("SELECT day, profile, tokens FROM usage_days").all();
    assert.deepEqual(
      rows,
      [{ day: "2026-12-03", profile: "claude", tokens: 7 }],
      "only the day in course is kept",
    );
  } finally {
    await again.close();
  }
});
