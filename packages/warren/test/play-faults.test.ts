import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DaemonClient } from "pi-roost/client";
import { type CommandPayload, playAgent, type RunEvent, WarrenClient } from "../src/client/index.js";
import type { Decision } from "../src/engine/index.js";
import { findScenario } from "../src/scenarios/index.js";
import {
  dispatchPlayer,
  engineerReply,
  playTable,
  replyUntilEnded,
  roost,
  rowWhen,
} from "./helpers/play-table.js";

function payloadOf(decision: Decision): CommandPayload {
  if (decision.kind === "action") return { action: decision.action, args: decision.args };
  if (decision.kind === "sleep") return { sleep_ms: decision.sleep_ms };
  return { noop: true };
}

function killed(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function until(
  what: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("warren play across crashes", () => {
  const table = playTable();

  it("resends a reply after the daemon and the player were SIGKILLed: duplicate, never a second action", async () => {
    const client = new WarrenClient(table.url);
    const scenario = findScenario("bridge_repair")!;
    const run = await client.createRun("bridge_repair", {
      seed: 3,
      controlled_agents: ["engineer-1", "courier-1", "lookout-1"],
      deadline_s: 120,
    });
    // The courier and the lookout play their solution here, holding their first move until the
    // crash is over: the first batch, and so the engineer's next observation, waits for them.
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const others = ["courier-1", "lookout-1"].map((agentId) => {
      const runner = scenario.solution(agentId);
      return playAgent(client.agent(run.run_id, agentId), async ({ envelope }) => {
        if (envelope.seq === 0) await held;
        return payloadOf(runner.decide(envelope.observation));
      });
    });
    const id = await dispatchPlayer(table.home, `${table.url} ${run.run_id} engineer-1`);
    const asked = await rowWhen(table.home, id, (r) => r.waitingFor === "question");
    assert.equal(engineerReply(asked.question!), "take toolbox-1");
    assert.equal((await roost(table.home, "reply", id, "take toolbox-1")).code, 0);
    const sent = await rowWhen(table.home, id, (r) => /take toolbox-1: accepted/.test(r.summary ?? ""));
    assert.equal(sent.pending, 1, "the reply is not acked while the run has not moved on");

    const controller = await DaemonClient.connect({ home: table.home });
    const { pid: daemonPid } = (await controller.call("stats", {})) as { pid: number };
    controller.close();
    process.kill(daemonPid, "SIGKILL");
    process.kill(sent.pid!, "SIGKILL");
    await until("both processes to be gone", () => killed(daemonPid) && killed(sent.pid!));

    const gone = await rowWhen(table.home, id, (r) => r.pid !== sent.pid || r.lifecycle !== "running");
    if (gone.lifecycle !== "running" && gone.lifecycle !== "starting") {
      const respawned = await roost(table.home, "respawn", id);
      assert.equal(respawned.code, 0, respawned.stderr);
    }
    const resent = await rowWhen(table.home, id, (r) => /take toolbox-1: duplicate/.test(r.summary ?? ""));
    assert.notEqual(resent.pid, sent.pid, "a new player sent it again");
    release();

    let first = true;
    await replyUntilEnded(
      table.home,
      id,
      (row) => {
        if (first) assert.match(row.question!, /Last: take toolbox-1 → duplicate, outcome accepted/);
        first = false;
        return engineerReply(row.question!);
      },
      "op",
    );
    assert.deepEqual(await Promise.all(others), ["completed", "completed"]);
    assert.equal((await client.run(run.run_id)).status, "completed");

    const events: RunEvent[] = [];
    await client.spectate(run.run_id, { onEvent: (e) => events.push(e) });
    const firstMoves = events.filter(
      (e) => e.kind === "decision" && e.data.observation_id === "engineer-1#0",
    );
    assert.equal(firstMoves.length, 1, "the engineer's first move was taken once");
    assert.equal(firstMoves[0]!.receipt?.status, "accepted");
    // An accepted command is its decision event; the resend is a verdict of its own.
    const verdicts = events.filter((e) => e.kind === "verdict" && e.data.observation_id === "engineer-1#0");
    assert.deepEqual(
      verdicts.map((e) => e.data.status),
      ["duplicate"],
    );
  });
});
