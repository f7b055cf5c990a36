import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { engineerReply, playHome, roost, rowWhen, startWarrenServe } from "./helpers/play-table.js";

describe("warren play under roost", () => {
  let warren: { url: string; stop(): void };
  let table: { home: string; remove(): void };
  before(async () => {
    [warren, table] = await Promise.all([startWarrenServe(), playHome()]);
  });
  after(async () => {
    await roost(table.home, "shutdown", "--all");
    table.remove();
    warren.stop();
  });

  it("asks each observation in the row and plays bridge_repair to completed on `roost reply`", async () => {
    const client = new WarrenClient(warren.url);
    const run = await client.createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["engineer-1"],
      npc_policy: "solution",
      deadline_s: 120,
    });
    const dispatched = await roost(
      table.home,
      "dispatch",
      "warren-play",
      `${warren.url} ${run.run_id} engineer-1`,
      "--json",
    );
    assert.equal(dispatched.code, 0, dispatched.stderr);
    const { id } = JSON.parse(dispatched.stdout) as { id: string };
    let asked = "";
    let replies = 0;
    for (;;) {
      const row = await rowWhen(
        table.home,
        id,
        (r) =>
          (r.waitingFor === "question" && r.question !== asked) || ["done", "failed"].includes(r.lifecycle),
      );
      if (row.waitingFor !== "question") break;
      asked = row.question!;
      assert.ok(row.choices.length <= 20 && row.choices.every((c) => c.length <= 200));
      assert.ok(row.choices.includes("noop"), "noop is always a choice");
      assert.match(row.summary!, new RegExp(`/runs/${run.run_id}`), "the viewer's page is in the row");
      if (replies === 0) {
        // A command that does not fit the catalogue gets a clear answer, and the same observation again.
        const bad = await roost(table.home, "reply", id, "take");
        assert.equal(bad.code, 0, bad.stderr);
        const again = await rowWhen(
          table.home,
          id,
          (r) => r.question !== asked && r.waitingFor === "question",
        );
        assert.match(again.question!, /"take" does not fit: args is missing the required field "item"/);
        asked = again.question!;
      }
      const choice = row.choices.indexOf(engineerReply(asked));
      const text = choice >= 0 ? String(choice + 1) : engineerReply(asked);
      const sent = await roost(table.home, "reply", id, text);
      assert.equal(sent.code, 0, sent.stderr);
      replies++;
      assert.ok(replies < 40, "the engineer's plan takes a dozen moves");
    }
    const view = await client.run(run.run_id);
    assert.equal(view.status, "completed", view.status_reason);
    const ended = await rowWhen(table.home, id, (r) => ["done", "failed"].includes(r.lifecycle));
    assert.equal(ended.state, "done");
    assert.match(ended.summary!, /completed/);
  });
});
