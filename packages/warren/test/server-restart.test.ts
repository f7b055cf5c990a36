import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { WebSocket } from "ws";
import { WarrenClient } from "../src/client/index.js";
import type { RunEvent, RunView } from "../src/protocol/index.js";
import { STORE_FILE } from "../src/server/run-store.js";
import { playWithUsage } from "./helpers/metered-play.js";
import { call, engineerAwaitingCourier, runWithClaims, waitFor } from "./helpers/server.js";
import { warrenServeFile } from "./helpers/warren-process.js";

const children: ChildProcess[] = [];
const folders: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A real `warren serve` on a free port keeping its runs in `dataDir`; resolves with its URL. */
async function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [warrenServeFile, "--port", "0", "--data", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let text = "";
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { child, url };
  }
  throw new Error(`warren serve did not start: ${text}`);
}

/** Every frame of a run's spectator stream from the start, and the close code. */
async function spectate(url: string, runId: string): Promise<{ events: RunEvent[]; code: number }> {
  const socket = new WebSocket(`${url.replace("http", "ws")}/v1/runs/${runId}/spectate?since=0`);
  const events: RunEvent[] = [];
  socket.on("message", (data) => events.push(JSON.parse(String(data))));
  const [code] = (await once(socket, "close")) as [number];
  return { events, code };
}

/** A live run's events up to `cursor`, as its spectators saw them. */
async function spectateTo(url: string, runId: string, cursor: number): Promise<RunEvent[]> {
  const socket = new WebSocket(`${url.replace("http", "ws")}/v1/runs/${runId}/spectate?since=0`);
  const events: RunEvent[] = [];
  socket.on("message", (data) => events.push(JSON.parse(String(data))));
  await waitFor(`${runId}'s events to #${cursor}`, async () => (events.length >= cursor ? true : undefined));
  socket.close();
  return events.slice(0, cursor);
}

const create = async (url: string, scenario: string, body: Record<string, unknown>) => {
  const created = await call(url, "POST", "/v1/runs", { query: { scenario, seed: 2 }, body });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  return created.json.run_id as string;
};

const ended = (url: string, runId: string) =>
  waitFor(`${runId} to end`, async () => {
    const view = (await call(url, "GET", `/v1/runs/${runId}`)).json;
    return view.status === "created" || view.status === "running" ? undefined : view;
  });

describe("runs outlive the server", () => {
  it("after a SIGKILL and a start: ended runs are served as before, live ones are interrupted, ids never collide, old leases are refused", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "warren-data-"));
    folders.push(dataDir);
    const first = await serve(dataDir);
    const completed = await create(first.url, "bridge_repair", {});
    const failed = await create(first.url, "bridge_repair", { npc_policy: "noop", max_sim_s: 300 });
    const unclaimed = await create(first.url, "bridge_repair", { controlled_agents: ["engineer-1"] });
    const { runId: running, agent, lease, envelope } = await engineerAwaitingCourier(first.url);
    const before = {
      completed: await ended(first.url, completed),
      failed: await ended(first.url, failed),
    };
    assert.equal(before.completed.status, "completed");
    assert.equal(before.failed.status, "failed");
    const logs = {
      completed: await spectate(first.url, completed),
      failed: await spectate(first.url, failed),
    };
    const runningView = (await call(first.url, "GET", `/v1/runs/${running}`)).json;
    assert.equal(runningView.status, "running");
    const runningEvents = await spectateTo(first.url, running, runningView.event_cursor);
    // The kill comes once the ends and the running run's events are on disk (written on a short timer).
    const db = new Database(join(dataDir, STORE_FILE), { readonly: true });
    await waitFor("the runs on disk", async () => {
      const last = db.prepare("SELECT MAX(last_cursor) AS last FROM run_events WHERE run_id = ?");
      const ends = db.prepare("SELECT COUNT(*) AS n FROM runs WHERE ended_order IS NOT NULL");
      const written = (last.get(running) as { last: number | null }).last ?? 0;
      return written >= runningView.event_cursor && (ends.get() as { n: number }).n === 2 ? true : undefined;
    });
    db.close();
    first.child.kill("SIGKILL");
    await once(first.child, "exit");

    const second = await serve(dataDir);
    const listed = (await call(second.url, "GET", "/v1/runs")).json.runs as {
      run_id: string;
      status: string;
    }[];
    assert.deepEqual(
      listed.map((r) => [r.run_id, r.status]),
      [
        [completed, "completed"],
        [failed, "failed"],
        [unclaimed, "interrupted"],
        [running, "interrupted"],
      ],
    );
    for (const name of ["completed", "failed"] as const) {
      const runId = name === "completed" ? completed : failed;
      const view = (await call(second.url, "GET", `/v1/runs/${runId}`)).json;
      assert.deepEqual(view, before[name], `${name}: the same view, scores and log hash`);
      const again = await spectate(second.url, runId);
      assert.equal(again.code, 1000);
      assert.deepEqual(again.events, logs[name].events, `${name}: the same events, cursor for cursor`);
    }
    assert.ok(before.completed.scores.solution_sim_time_ms > 0);
    const record = (await call(second.url, "GET", `/runs/${completed}/record`)).json;
    assert.ok(Object.keys(record.texts).length > 0, "the viewer's replay record is served");
    assert.equal((await call(second.url, "GET", `/runs/${completed}/scene`)).json.run_id, completed);

    // What was live says it was interrupted, and when.
    for (const runId of [unclaimed, running]) {
      const view = (await call(second.url, "GET", `/v1/runs/${runId}`)).json;
      assert.equal(view.status, "interrupted");
      assert.match(
        view.status_reason,
        /^the server stopped while the run was (created|running) \(last heard from at \d{4}-.*Z\); found at its restart at \d{4}-.*Z$/,
      );
      const log = await spectate(second.url, runId);
      assert.equal(log.code, 1000);
      assert.deepEqual(log.events.at(-1)!.data, { status: "interrupted", reason: view.status_reason });
      assert.deepEqual(
        log.events.map((e) => e.cursor),
        Array.from({ length: view.event_cursor }, (_, i) => i + 1),
      );
    }
    const interruptedLog = await spectate(second.url, running);
    assert.deepEqual(interruptedLog.events.slice(0, -1), runningEvents, "the log as it stood at the kill");

    // A lease from before the restart is refused clearly, whatever it asks.
    for (const [method, path, query] of [
      ["POST", `${agent}/claim`, { lease }],
      ["GET", `${agent}/observations`, { lease, after: envelope.seq }],
      ["POST", `${agent}/release`, { lease }],
    ] as const) {
      const refused = await call(second.url, method, path, { query });
      assert.equal(refused.status, 410, `${method} ${path}`);
      assert.equal(refused.json.error, "run_interrupted");
      assert.equal(refused.json.status, "interrupted");
      assert.match(refused.json.detail, /was interrupted: the server stopped while the run was running/);
    }
    const claimEnded = await call(second.url, "POST", `/v1/runs/${completed}/agents/engineer-1/claim`);
    assert.deepEqual([claimEnded.status, claimEnded.json.error], [410, "run_ended"]);

    // New runs take new ids, never an old one.
    const fresh = await create(second.url, "bridge_repair", { controlled_agents: ["engineer-1"] });
    assert.equal(fresh, "run-5");
    const freshClaim = await call(second.url, "POST", `/v1/runs/${fresh}/agents/engineer-1/claim`, {
      query: { lease },
    });
    assert.equal(freshClaim.status, 200);
    assert.notEqual(freshClaim.json.lease, lease);

    // A second server on the same folder would interrupt the first's runs: it refuses to start.
    const rival = spawn(process.execPath, [warrenServeFile, "--port", "0", "--data", dataDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(rival);
    let rivalErr = "";
    rival.stderr!.on("data", (chunk) => (rivalErr += String(chunk)));
    const [rivalCode] = await once(rival, "exit");
    assert.equal(rivalCode, 1);
    assert.match(rivalErr, /another warren serve \(pid \d+\) keeps its runs in/);

    // A clean stop interrupts the live run too, saying when; the next start serves it.
    second.child.kill("SIGTERM");
    assert.deepEqual(await once(second.child, "exit"), [0, null]);
    const third = await serve(dataDir);
    const stopped = (await call(third.url, "GET", `/v1/runs/${fresh}`)).json;
    assert.equal(stopped.status, "interrupted");
    assert.match(stopped.status_reason, /^the server stopped at \d{4}-.*Z before the run ended$/);
    assert.equal(await create(third.url, "bridge_repair", {}), "run-6");
    third.child.kill("SIGTERM");
    await once(third.child, "exit");
  });

  it("keeps each agent's usage across a SIGKILL: an ended run's totals and events, a live run's totals so far", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "warren-data-"));
    folders.push(dataDir);
    const first = await serve(dataDir);
    const spent = { input_tokens: 700, output_tokens: 70, cost: 0.125 };
    const warren = new WarrenClient(first.url);
    const { run_id: ended } = await warren.createRun("signal_relay", {
      seed: 2,
      controlled_agents: ["runner-1"],
    });
    assert.equal(await playWithUsage(warren, ended, "runner-1", "signal_relay", spent), "completed");
    // A live run whose engineer has answered one observation, reporting usage, and is thinking on the next.
    const { runId: running, leases } = await runWithClaims(first.url, "bridge_repair", ["engineer-1"]);
    const path = `/v1/runs/${running}/agents/engineer-1`;
    const lease = leases["engineer-1"]!;
    const envelope = (await call(first.url, "GET", `${path}/observations`, { query: { lease, wait: 5 } }))
      .json;
    const answer = await call(first.url, "POST", `${path}/commands`, {
      query: { lease },
      body: { command_id: "u-1", observation_id: envelope.observation_id, sleep_ms: 1000, usage: spent },
    });
    assert.equal(answer.json.status, "accepted");
    await call(first.url, "GET", `${path}/observations`, { query: { lease, after: envelope.seq, wait: 5 } });
    const before: Record<string, RunView> = {};
    for (const runId of [ended, running])
      before[runId] = (await call(first.url, "GET", `/v1/runs/${runId}`)).json;
    assert.deepEqual(before[ended]!.scores.usage, {
      input_tokens: 2100,
      output_tokens: 210,
      cost: 0.375,
      score_per_1k_tokens: 1000 / 2310,
      score_per_cost: 1 / 0.375,
    });
    const engineerUsage = (view: RunView) =>
      view.scores.agents.find((a) => a.agent_id === "engineer-1")!.usage;
    assert.deepEqual(engineerUsage(before[running]!), {
      commands: 1,
      input_tokens: 700,
      output_tokens: 70,
      cost: 0.125,
    });
    const log = await spectate(first.url, ended);
    const db = new Database(join(dataDir, STORE_FILE), { readonly: true });
    // The kill comes once both runs' scores are on disk, and the ended run's end.
    await waitFor("the views on disk", async () => {
      const stored = db.prepare("SELECT view, ended_order FROM runs WHERE run_id = ?");
      const onDisk = (runId: string) => stored.get(runId) as { view: string; ended_order: number | null };
      const written = [ended, running].every(
        (runId) =>
          JSON.stringify(JSON.parse(onDisk(runId).view).scores) === JSON.stringify(before[runId]!.scores),
      );
      return written && onDisk(ended).ended_order !== null ? true : undefined;
    });
    db.close();
    first.child.kill("SIGKILL");
    await once(first.child, "exit");

    const second = await serve(dataDir);
    const afterEnded = (await call(second.url, "GET", `/v1/runs/${ended}`)).json;
    assert.deepEqual(afterEnded, before[ended], "the same view, usage totals and all");
    const again = await spectate(second.url, ended);
    assert.deepEqual(again.events, log.events, "the same events, each decision's usage with it");
    assert.deepEqual(
      again.events.flatMap((e) => (e.kind === "decision" && e.receipt ? [e.usage] : [])),
      [spent, spent, spent],
    );
    const afterRunning = (await call(second.url, "GET", `/v1/runs/${running}`)).json;
    assert.equal(afterRunning.status, "interrupted");
    assert.deepEqual(afterRunning.scores, before[running]!.scores, "the totals as they stood at the kill");
    second.child.kill("SIGTERM");
    await once(second.child, "exit");
  });
});
