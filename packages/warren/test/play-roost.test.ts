import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import {
  dispatchPlayer,
  engineerReply,
  playTable,
  replyUntilEnded,
  roost,
  rowWhen,
} from "./helpers/play-table.js";

describe("warren play under roost", () => {
  const table = playTable();

  it("asks each observation in the row and plays bridge_repair to completed on `roost reply`", async () => {
    const client = new WarrenClient(table.url);
    const run = await client.createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["engineer-1"],
      npc_policy: "solution",
      deadline_s: 120,
    });
    const id = await dispatchPlayer(table.home, `${table.url} ${run.run_id} engineer-1`);
    // A command that does not fit the catalogue gets a clear answer, and the same observation again.
    // (Before the plan's replies: each of those waits for a question other than the one it answered.)
    const first = await rowWhen(table.home, id, (r) => r.waitingFor === "question");
    assert.equal((await roost(table.home, "reply", id, "take")).code, 0);
    const again = await rowWhen(
      table.home,
      id,
      (r) => r.question !== first.question && r.waitingFor === "question",
    );
    assert.match(again.question!, /"take" does not fit: args is missing the required field "item"/);
    const ended = await replyUntilEnded(table.home, id, (row) => {
      assert.ok(row.choices.length <= 20 && row.choices.every((c) => c.length <= 200));
      assert.ok(row.choices.includes("noop"), "noop is always a choice");
      assert.match(row.summary!, new RegExp(`/runs/${run.run_id}`), "the viewer's page is in the row");
      // A choice's number when the move is among the choices, else the command written out.
      const choice = row.choices.indexOf(engineerReply(row.question!));
      return choice >= 0 ? String(choice + 1) : engineerReply(row.question!);
    });
    const view = await client.run(run.run_id);
    assert.equal(view.status, "completed", view.status_reason);
    assert.equal(ended.state, "done");
    assert.match(ended.summary!, /completed/);
  });
});
