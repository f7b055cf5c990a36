import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { DaemonClient } from "../src/client/daemon-client.js";
import { takeWriterLock } from "../src/home/writer-lock.js";
import { type BoardCounts, type BoardTask, RoostError } from "../src/protocol/index.js";
import type { EventMessage } from "../src/protocol/messages.js";
import { agentDoes, boardLog, boardProfiles, startAgent } from "./helpers/board.js";
import { jobSecrets, startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { hubClient, rowOf } from "./helpers/fixture-agents.js";

// A foreground pi's claims outlive its connection by this much (5 s unless the daemon is told).
// Long enough for a reconnect on a loaded machine to come within it.
const GRACE_MS = 3000;
process.env.PI_ROOST_FG_CLAIM_GRACE_MS = String(GRACE_MS);

const isCode = (code: string) => (e: unknown) => e instanceof RoostError && e.code === code;

let daemon: TestDaemon;
let hub: DaemonClient;
const boardEvents: BoardCounts[] = [];

before(async () => {
  daemon = await startTestDaemon({
    config: {
      agentProfiles: { ...boardProfiles(), sleeper: TEST_PROFILES.sleeper, mute: TEST_PROFILES.mute },
    },
  });
  hub = await hubClient(daemon);
  hub.on("event", (event: EventMessage) => {
    if (event.event === "board") {
      const { open, claimed, blocked, done } = event as unknown as BoardCounts;
      boardEvents.push({ open, claimed, blocked, done });
    }
  });
  await hub.call("subscribe", {});
});
after(async () => {
  hub?.close();
  await daemon?.stop();
});

const add = async (title: string, after?: number[]) =>
  (await hub.call("task", { action: "add", title, ...(after ? { after } : {}) })).task!;
const taskOf = async (id: number): Promise<BoardTask> =>
  (await hub.call("task", { action: "list" })).tasks.find((t) => t.id === id)!;
const feed = async (taskId: number) =>
  (await hub.call("events", {})).events.filter((e) => e.kind === "task" && e.taskId === taskId);

describe("the task board", () => {
  /**
   * The two workers (one on each client) most tests use: started by the first test that asks, so
   * each test sets up what it uses and still runs alone, without starting them for every test.
   */
  let started: Promise<{ ts: string; py: string }> | null = null;
  const workers = () =>
    (started ??= (async () => ({
      ts: await startAgent(hub, "board-ts", "worker-ts"),
      py: await startAgent(hub, "board-py", "worker-py"),
    }))());

  test("a chain of three tasks with after, claimed and done by two agents (TypeScript and Python)", async () => {
    const { ts, py } = await workers();
    const a = await add("design the parser");
    const b = await add("write the parser", [a.id]);
    const c = await add("test the parser", [b.id]);
    assert.equal(b.blocked, true);
    assert.deepEqual(c.after, [b.id]);

    let out = await agentDoes(daemon, hub, ts, { op: "claim", id: b.id });
    assert.equal(out.code, "blocked", out.error);
    out = await agentDoes(daemon, hub, ts, { op: "claim", id: a.id });
    assert.equal(out.ok, true, out.error);
    assert.deepEqual(out.task.owner, { id: ts, name: "worker-ts" });
    out = await agentDoes(daemon, hub, py, { op: "claim", id: a.id });
    assert.equal(out.code, "conflict", out.error);
    out = await agentDoes(daemon, hub, py, { op: "done", id: a.id });
    assert.equal(out.code, "unsupported", out.error);
    out = await agentDoes(daemon, hub, ts, { op: "claim", id: a.id });
    assert.equal(out.ok, true, "one's own claim again is fine");
    out = await agentDoes(daemon, hub, ts, { op: "done", id: a.id, result: "grammar in docs/grammar.md" });
    assert.equal(out.task.state, "done");
    assert.equal(out.task.result, "grammar in docs/grammar.md");

    out = await agentDoes(daemon, hub, py, { op: "claim", id: b.id });
    assert.equal(out.ok, true, out.error);
    out = await agentDoes(daemon, hub, ts, { op: "claim", id: c.id });
    assert.equal(out.code, "blocked");
    out = await agentDoes(daemon, hub, py, { op: "done", id: b.id, result: "parser.ts" });
    assert.equal(out.ok, true, out.error);
    out = await agentDoes(daemon, hub, ts, { op: "claim", id: c.id });
    assert.equal(out.ok, true, out.error);
    out = await agentDoes(daemon, hub, ts, { op: "done", id: c.id });
    assert.equal(out.ok, true, out.error);

    const [doneA, doneB, doneC] = [await taskOf(a.id), await taskOf(b.id), await taskOf(c.id)];
    assert.deepEqual(
      [doneA, doneB, doneC].map((t) => [t.state, t.owner?.name]),
      [
        ["done", "worker-ts"],
        ["done", "worker-py"],
        ["done", "worker-ts"],
      ],
    );
    assert.ok(
      doneA.doneAt! <= doneB.claimedAt! && doneB.doneAt! <= doneC.claimedAt!,
      "each after the one before",
    );
    assert.deepEqual(
      (await feed(a.id)).map((e) => [e.why, e.text, e.who]),
      [
        ["add", "#1 design the parser", "user"],
        ["claim", "#1 design the parser", "worker-ts"],
        ["done", "#1 design the parser: grammar in docs/grammar.md", "worker-ts"],
      ],
    );
    assert.equal((await feed(b.id)).at(-1)!.whoId, py);
    await waitFor("the last board event", async () =>
      boardEvents.at(-1)?.done === 3 && boardEvents.at(-1)?.claimed === 0 ? true : undefined,
    );
    assert.ok(
      boardEvents.some((e) => e.blocked === 2 && e.open === 1),
      JSON.stringify(boardEvents),
    );
    assert.ok(boardEvents.some((e) => e.claimed === 1));

    // The other helpers, on each client: add (with after) and list.
    out = await agentDoes(daemon, hub, py, { op: "add", title: "document the parser", after: [c.id] });
    assert.equal(out.ok, true, out.error);
    assert.deepEqual(
      [out.task.by, out.task.after, out.task.blocked],
      [{ who: "worker-py", whoId: py }, [c.id], false],
    );
    out = await agentDoes(daemon, hub, ts, { op: "add", title: "release the parser", after: [out.task.id] });
    assert.deepEqual([out.task.by.whoId, out.task.blocked], [ts, true]);
    out = await agentDoes(daemon, hub, ts, { op: "list" });
    assert.equal(out.count, 5);
    out = await agentDoes(daemon, hub, py, { op: "list" });
    assert.equal(out.count, 5);
  });

  test("the events feed: the newest, after a cursor, a limit, one job's", async () => {
    const { py } = await workers();
    for (let i = 1; i <= 12; i++) await add(`feed line ${i}`);
    const all = await hub.call("events", {});
    assert.ok(all.events.length > 10);
    assert.equal(all.cursor, all.events.at(-1)!.id);
    const page = await hub.call("events", { after: all.events[2]!.id, limit: 3 });
    assert.deepEqual(
      page.events.map((e) => e.id),
      all.events.slice(3, 6).map((e) => e.id),
    );
    assert.equal(page.cursor, all.events[5]!.id);
    const newest = await hub.call("events", { limit: 2 });
    assert.deepEqual(newest.events, all.events.slice(-2));
    const nothingNew = await hub.call("events", { after: all.cursor });
    assert.deepEqual([nothingNew.events, nothingNew.cursor], [[], all.cursor]);
    const ofPy = await hub.call("events", { id: "worker-py" });
    assert.ok(ofPy.events.length > 0 && ofPy.events.every((e) => e.jobs.includes(py)));
    for (const bad of [{ after: -1 }, { limit: 0 }, { limit: 1001 }, { id: 7 }])
      await assert.rejects(hub.call("events", bad as never), isCode("bad_request"), JSON.stringify(bad));
    const raw = await daemon.connect();
    await raw.request("hello", { protocol: 1, agent: { name: "raw", version: "1" } });
    assert.equal((await raw.request("events", {})).code, "unsupported");
    raw.close();
  });

  test("every refusal, with its code", async () => {
    const { ts, py } = await workers();
    const finished = await add("finished");
    assert.equal((await agentDoes(daemon, hub, ts, { op: "claim", id: finished.id })).ok, true);
    assert.equal((await agentDoes(daemon, hub, ts, { op: "done", id: finished.id })).ok, true);
    const t = await add("refusals");
    const claim = await agentDoes(daemon, hub, ts, { op: "claim", id: t.id });
    assert.equal(claim.ok, true);
    const refusals: [Record<string, unknown>, string][] = [
      [{ action: "nope" }, "bad_request"],
      [{ action: "add" }, "bad_request"],
      [{ action: "add", title: "x".repeat(501) }, "bad_request"],
      [{ action: "add", title: "waits", after: [999] }, "bad_request"],
      [{ action: "add", title: "waits", after: "1" }, "bad_request"],
      [{ action: "add", title: "waits", after: Array<number>(51).fill(t.id) }, "bad_request"],
      [{ action: "add", title: "long", detail: "d".repeat(8001) }, "bad_request"],
      [{ action: "done", id: t.id, result: "r".repeat(6001) }, "bad_request"],
      [{ action: "claim", id: t.id }, "unsupported"],
      [{ action: "done", id: "abc" }, "bad_request"],
      [{ action: "done", id: 0 }, "bad_request"],
      [{ action: "done", id: 999 }, "not_found"],
      [{ action: "done", id: finished.id }, "bad_request"],
      [{ action: "release", id: finished.id }, "bad_request"],
      [{ action: "drop", id: finished.id }, "bad_request"],
      [{ action: "assign", id: t.id, to: ts }, "bad_request"],
      [{ action: "assign", id: 999, to: ts }, "not_found"],
    ];
    for (const [args, code] of refusals)
      await assert.rejects(hub.call("task", args as never), isCode(code), JSON.stringify(args));

    // At the edges: 50 tasks in after, a detail of 8000.
    const edge = (
      await hub.call("task", {
        action: "add",
        title: "t".repeat(500),
        detail: "d".repeat(8000),
        after: Array<number>(50).fill(t.id),
      })
    ).task!;
    assert.deepEqual([edge.title.length, edge.detail!.length, edge.after], [500, 8000, [t.id]]);
    await hub.call("task", { action: "drop", id: edge.id });
    const open = await add("open one");
    await assert.rejects(
      hub.call("task", { action: "assign", id: open.id, to: "nobody" }),
      isCode("not_found"),
    );
    const { id: terminal } = await hub.call("dispatch", { profile: "sleeper", name: "a-shell" });
    await assert.rejects(
      hub.call("task", { action: "assign", id: open.id, to: terminal }),
      isCode("unsupported"),
    );
    await hub.call("rm", { id: terminal });

    // On an agent's connection.
    const byAgent: [Record<string, unknown>, string][] = [
      [{ op: "claim", id: 999 }, "not_found"],
      [{ op: "release", id: open.id }, "bad_request"],
      [{ op: "done", id: finished.id }, "bad_request"],
    ];
    for (const [command, code] of byAgent) {
      const out = await agentDoes(daemon, hub, py, command);
      assert.equal(out.code, code, JSON.stringify(command));
    }
    assert.equal((await agentDoes(daemon, hub, py, { op: "release", id: t.id })).code, "unsupported");

    // A connection that said hello but has not reported, and one whose job has ended.
    const { id: mute } = await hub.call("dispatch", { profile: "mute", name: "mute" });
    const secret = (await jobSecrets(daemon.stateDir)).find((s) => s.id === mute)!;
    const raw = await daemon.connect();
    await raw.request("hello", { protocol: 1, agent: { name: "raw", version: "1" } });
    let answer = await raw.request("task", { action: "list" });
    assert.equal(answer.code, "unauthorized");
    answer = await raw.request("report", { id: mute, token: secret.token, report: { state: "working" } });
    assert.equal(answer.ok, true);
    answer = await raw.request("task", { action: "list" });
    assert.equal(answer.ok, true);
    answer = await raw.request("task", { action: "drop", id: open.id });
    assert.equal(answer.code, "unsupported");
    await hub.call("stop", { id: mute });
    await waitFor("the mute job stopped", async () =>
      (await rowOf(hub, mute))?.lifecycle === "stopped" ? true : undefined,
    );
    answer = await raw.request("task", { action: "list" });
    assert.equal(answer.code, "unauthorized");
    raw.close();
    await hub.call("rm", { id: mute });
  });

  test("assign sends a message and marks the task only when the session was reached", async () => {
    const { py } = await workers();
    const t = await add("review the parser");
    const result = await hub.call("task", { action: "assign", id: t.id, to: "worker-py" });
    assert.equal(result.sent, "delivered");
    assert.deepEqual(
      { id: result.task!.assigned!.id, name: result.task!.assigned!.name },
      { id: py, name: "worker-py" },
    );
    const message = await waitFor("the assignment message", async () =>
      boardLog(daemon, py).find((e) => e.kind === "message" && e.text?.includes(`#${t.id}`)),
    );
    assert.match(message.text!, /review the parser/);
    assert.match(message.text!, /"action": "claim", "id": \d+/);
    assert.equal(message.from, "user");
    assert.deepEqual((await feed(t.id)).at(-1)!.text, `#${t.id} review the parser: to worker-py`);
    const claimed = await agentDoes(daemon, hub, py, { op: "claim", id: t.id });
    assert.equal(claimed.task.assigned, null, "the claim clears the assignment");

    // Done by the user: the holder is told.
    await hub.call("task", { action: "done", id: t.id, result: "looks fine" });
    const told = await waitFor("the holder told", async () =>
      boardLog(daemon, py).find(
        (e) => e.kind === "message" && /marked done by the user: looks fine/.test(e.text ?? ""),
      ),
    );
    assert.ok(told);

    // A stopped session is not reached: the task stays unassigned.
    const { id: stopped } = await hub.call("dispatch", { profile: "mute", name: "stopped-one" });
    await hub.call("stop", { id: stopped });
    await waitFor("stopped", async () =>
      (await rowOf(hub, stopped))?.lifecycle === "stopped" ? true : undefined,
    );
    const open = await add("nobody takes this");
    const missed = await hub.call("task", { action: "assign", id: open.id, to: stopped });
    assert.equal(missed.sent, "stopped");
    assert.equal(missed.task!.assigned, null);
    await hub.call("rm", { id: stopped });
  });

  test("claims are released when a job is stopped, removed, or fails after SIGKILLs", async () => {
    // Agents of its own: this test stops one and kills the other for good.
    const ts = await startAgent(hub, "board-ts", "stopped-ts");
    const py = await startAgent(hub, "board-py", "killed-py");
    const t1 = await add("held by a job that is stopped");
    assert.equal((await agentDoes(daemon, hub, ts, { op: "claim", id: t1.id })).ok, true);
    await hub.call("stop", { id: ts });
    const released = await waitFor("the release", async () => {
      const t = await taskOf(t1.id);
      return t.state === "open" ? t : undefined;
    });
    assert.equal(released.owner, null);
    assert.equal(
      (await feed(t1.id)).at(-1)!.text,
      `#${t1.id} held by a job that is stopped: its session stopped`,
    );

    // SIGKILL: the daemon starts the agent again (it still holds its claim); three in a row and it fails.
    const t2 = await add("held by a job that is killed");
    assert.equal((await agentDoes(daemon, hub, py, { op: "claim", id: t2.id })).ok, true);
    for (let kill = 1; kill <= 3; kill++) {
      const row = await waitFor("a running agent", async () => {
        const r = await rowOf(hub, py);
        return r?.lifecycle === "running" && r.pid !== null && r.connected ? r : undefined;
      });
      process.kill(row.pid!, "SIGKILL");
      if (kill < 3) {
        await waitFor("started again", async () => {
          const r = await rowOf(hub, py);
          return r && r.restarts === kill && r.lifecycle === "running" && r.connected ? true : undefined;
        });
        assert.equal((await taskOf(t2.id)).owner?.id, py, "a job started again still holds its claim");
      }
    }
    await waitFor("failed", async () => ((await rowOf(hub, py))?.lifecycle === "failed" ? true : undefined));
    await waitFor("released", async () => ((await taskOf(t2.id)).state === "open" ? true : undefined));
    assert.equal((await feed(t2.id)).at(-1)!.why, "release");

    // Removed: a fresh agent claims, then its job is removed.
    const third = await startAgent(hub, "board-ts", "worker-ts-2");
    const t3 = await add("held by a job that is removed");
    assert.equal((await agentDoes(daemon, hub, third, { op: "claim", id: t3.id })).ok, true);
    await hub.call("rm", { id: third });
    const after = await taskOf(t3.id);
    assert.equal(after.state, "open");
    assert.equal(
      (await feed(t3.id)).at(-1)!.text,
      `#${t3.id} held by a job that is removed: its session was removed`,
    );
  });

  test("a foreground pi's claims go a moment after it disconnects, unless a pi on its session is back", async () => {
    const session = join(daemon.stateDir, "a-foreground-session.jsonl");
    const lock = takeWriterLock(daemon.stateDir, session);
    assert.ok(lock.taken);
    const register = async () => {
      const raw = await daemon.connect();
      const answer = await raw.request("peer_register", {
        session,
        name: "fg-pi",
        cwd: daemon.home,
        pid: process.pid,
      });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      return { raw, id: answer.result.id as string };
    };
    let { raw, id } = await register();
    const t = await add("held by a foreground pi");
    const claimed = await raw.request("task", { action: "claim", id: String(t.id) });
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    assert.deepEqual(claimed.result.task.owner, { id, name: "fg-pi" });
    // Dropped by the user: the foreground pi is told.
    const dropped = await add("dropped under a foreground pi");
    assert.equal((await raw.request("task", { action: "claim", id: dropped.id })).ok, true);
    await hub.call("task", { action: "drop", id: dropped.id });
    const told = await raw.nextEvent((e) => e.event === "deliver" && e.kind === "message");
    assert.match(
      told.text,
      new RegExp(`#${dropped.id} dropped under a foreground pi was dropped .* by the user`),
    );
    // Assigned to it by name: the message comes on its connection.
    const handed = await add("for the foreground pi");
    const assigned = await hub.call("task", { action: "assign", id: handed.id, to: "fg-pi" });
    assert.deepEqual([assigned.sent, assigned.task!.assigned?.id], ["delivered", id]);
    const message = await raw.nextEvent((e) => e.event === "deliver" && e.kind === "message");
    assert.match(
      message.text,
      new RegExp(`Task #${handed.id} .* handed to you by the user: for the foreground pi`),
    );
    await hub.call("task", { action: "drop", id: handed.id });
    // Away, and back on the same session within the grace: it still holds the task.
    raw.close();
    ({ raw } = await register());
    await new Promise((r) => setTimeout(r, GRACE_MS + 1000));
    assert.equal((await taskOf(t.id)).owner?.id, id);
    // Gone for good: released once the grace has passed.
    raw.close();
    const gone = Date.now();
    await waitFor("the release", async () => ((await taskOf(t.id)).state === "open" ? true : undefined));
    assert.ok(Date.now() - gone >= GRACE_MS - 50, `released after ${Date.now() - gone} ms`);
    assert.equal(
      (await feed(t.id)).at(-1)!.text,
      `#${t.id} held by a foreground pi: its session disconnected`,
    );
    if (lock.taken) lock.release();
  });

  test("at most 200 tasks: full, unless a done or dropped one makes room", async () => {
    const { tasks } = await hub.call("task", { action: "list" });
    for (const t of tasks)
      if (t.state === "open" || t.state === "claimed") await hub.call("task", { action: "drop", id: t.id });
    // The finished ones go first; with the board full of open tasks, adding is refused.
    let count = (await hub.call("task", { action: "list" })).tasks.length;
    const firstNew = (await add("filler 0")).id;
    count++;
    while (count < 200) {
      await add(`filler ${count}`);
      count++;
    }
    assert.equal((await hub.call("task", { action: "list" })).tasks.length, 200);
    const oldest = (await hub.call("task", { action: "list" })).tasks[0]!;
    assert.ok(oldest.state === "done" || oldest.state === "dropped");
    // Still room: the finished ones go, oldest first.
    while (
      (await hub.call("task", { action: "list" })).tasks.some(
        (t) => t.state === "done" || t.state === "dropped",
      )
    )
      await add("pushes a finished one out");
    const full = await hub.call("task", { action: "list" });
    assert.equal(full.tasks.length, 200);
    assert.ok(full.tasks.every((t) => t.state === "open"));
    await assert.rejects(add("one too many"), isCode("full"));
    await hub.call("task", { action: "drop", id: firstNew });
    const added = await add("room again");
    const now = (await hub.call("task", { action: "list" })).tasks;
    assert.equal(now.length, 200);
    assert.ok(!now.some((t) => t.id === firstNew), "the dropped task made room");
    assert.equal(now.at(-1)!.id, added.id);
  });

  test("the events feed keeps the last 1000", async () => {
    // Each round drops every task and adds as many (each add pushes a dropped one out): 400 events.
    let head = (await hub.call("events", { limit: 1 })).cursor;
    while (head < 1010) {
      const { tasks } = await hub.call("task", { action: "list" });
      const open = tasks.filter((t) => t.state === "open");
      await Promise.all(open.map((t) => hub.call("task", { action: "drop", id: t.id })));
      await Promise.all(tasks.map((_, n) => add(`churn ${n}`)));
      head = (await hub.call("events", { limit: 1 })).cursor;
    }
    const kept = await hub.call("events", {});
    assert.equal(kept.events.length, 1000);
    assert.deepEqual([kept.events[0]!.id, kept.events.at(-1)!.id], [head - 999, head]);
    const fromStart = await hub.call("events", { after: 0, limit: 1000 });
    assert.equal(fromStart.events[0]!.id, head - 999);
  });

  test("roost tasks in the CLI: add, list, drop, assign, with --json", async () => {
    const { tasks } = await hub.call("task", { action: "list" });
    let out = await daemon.cli(["tasks", "drop", String(tasks[0]!.id)]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^dropped #\d+ +dropped +/);
    out = await daemon.cli([
      "tasks",
      "add",
      "from the command line",
      "--after",
      String(tasks[1]!.id),
      "--json",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const made = JSON.parse(out.stdout).task as BoardTask;
    assert.deepEqual([made.title, made.after, made.blocked], ["from the command line", [tasks[1]!.id], true]);
    out = await daemon.cli(["tasks"]);
    assert.match(
      out.stdout,
      new RegExp(`#${made.id} +blocked +from the command line +\\(after #${tasks[1]!.id}\\)`),
    );
    out = await daemon.cli(["tasks", "assign", String(made.id), "nobody", "--json"]);
    assert.equal(out.code, 1, `${out.stdout}\n${out.stderr}`);
    assert.equal(JSON.parse(out.stdout).code, "not_found");
  });
});
