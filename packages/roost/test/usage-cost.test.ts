// What a session costs: the real Claude Code, offline on the fake model server (10 input and 5
// output tokens an answer), its row's usage priced by roost.json's price for its model, an edit of
// the price applied within a round, and `roost usage` summing and pricing the rows.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Message } from "./helpers/daemon.js";
import { startFakeAnthropic } from "./helpers/fake-models.js";
import { claudeProfile, cliProgram, realCliProjectSuite } from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

const START_MS = 60_000;
const found = cliProgram("claude");

describe("claude: what a session costs", { skip: "skip" in found ? found.skip : false }, () => {
  const s = realCliProjectSuite(
    "claude",
    (found as { program: string }).program,
    startFakeAnthropic,
    claudeProfile,
  );

  /** roost.json as the suite wrote it, with these prices (an edit the daemon reads as it goes). */
  function setPrices(prices: object): void {
    const file = join(s.daemon.home, "roost.json");
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), prices }));
  }

  test("the row's cost is its tokens at its model's price; a new price applies; roost usage sums and prices the rows", async () => {
    setPrices({ "claude-fake": { input: 3, output: 15 } });
    const answer = await s.conn.request("dispatch", {
      profile: "claude",
      task: "TASK say hello",
      cwd: s.cwd,
    });
    const id = answer.result.id as string;
    // 10 × 3 + 5 × 15 millionths of a dollar.
    const row = await rowWhen(s.conn, id, (r: Message) => r.usage?.cost === 0.000105, START_MS);
    assert.deepEqual(row.usage, { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.000105 });

    const report = JSON.parse((await s.daemon.cli(["usage", "--json"])).stdout);
    assert.deepEqual(report.total, {
      key: "total",
      sessions: 1,
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      cost: 0.000105,
      unpriced: 0,
      unknown: 0,
    });
    assert.equal(report.groups[0].key, `${row.name} (${id})`);
    const byProfile = JSON.parse((await s.daemon.cli(["usage", "--by", "profile", "--json"])).stdout);
    assert.deepEqual(
      byProfile.groups.map((g: { key: string; cost: number }) => [g.key, g.cost]),
      [["claude", 0.000105]],
    );
    const human = await s.daemon.cli(["usage"]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^SESSION\s+SESSIONS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+COST$/m);
    assert.match(human.stdout, /^total\s+1\s+10\s+5\s+0\s+0\s+\$0\.000105$/m);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const none = JSON.parse((await s.daemon.cli(["usage", "--since", tomorrow, "--json"])).stdout);
    assert.equal(none.total.sessions, 0);

    setPrices({ "claude-*": { input: 30, output: 150 } });
    await rowWhen(s.conn, id, (r: Message) => r.usage?.cost === 0.00105, START_MS);
    setPrices({});
    // No price for the model any more (the defaults price claude-opus-*, -sonnet-*, -haiku-* only).
    const unpriced = await rowWhen(
      s.conn,
      id,
      (r: Message) => r.usage && r.usage.cost === undefined,
      START_MS,
    );
    assert.deepEqual(unpriced.usage, { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
    const said = await s.daemon.cli(["usage"]);
    assert.match(said.stdout, /1 session with no price for its model/);
  });

  test("a bad --by or --since is refused with its code, naming the flag", async () => {
    const by = await s.daemon.cli(["usage", "--by", "week"]);
    assert.equal(by.code, 1);
    assert.match(by.stderr, /bad_request: --by must be one of session, profile, day \(got "week"\)/);
    const since = await s.daemon.cli(["usage", "--since", "2026-13-40"]);
    assert.equal(since.code, 1);
    assert.match(since.stderr, /bad_request: --since must be a day \(YYYY-MM-DD\) or an ISO 8601 time/);
  });
});
