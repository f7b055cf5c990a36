// A process host or an agent that stops answering (SIGSTOP) must not hang the daemon's callers:
// they hear `busy` within a few seconds, the requests behind them are served, and the daemon
// recovers by itself once the host answers again.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type Message, startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";
import {
  FAULT_PROFILES,
  hostPidOf,
  reportFigures,
  typedLines,
  untilAsking,
  waitForExit,
} from "./helpers/faults.js";

/** The daemon's deadline on a host request, and a margin for a loaded machine. */
const PROMPT_MS = 5000 + 5000;

let daemon: TestDaemon;
/** The host a test stopped: let go again whatever happens. */
const stoppedHosts = new Set<number>();

function stopHost(pid: number): void {
  stoppedHosts.add(pid);
  process.kill(pid, "SIGSTOP");
}

function continueHost(pid: number): void {
  process.kill(pid, "SIGCONT");
  stoppedHosts.delete(pid);
}

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
});
after(async () => {
  for (const pid of stoppedHosts) continueHost(pid);
  await daemon.stop();
});

async function timed(request: Promise<Message>): Promise<{ answer: Message; ms: number }> {
  const started = Date.now();
  const answer = await request;
  return { answer, ms: Date.now() - started };
}

test("a stopped host: dispatch, a typed reply and stop answer busy promptly, the requests behind them are served, and the daemon recovers", async (t) => {
  const c = await daemon.connect();
  const typist = (await c.request("dispatch", { profile: "typist" })).result.id as string;
  await untilAsking(daemon, typist);
  const jobsBefore = (await c.request("list")).result.rows.length as number;
  const host = await hostPidOf(daemon);
  stopHost(host);
  try {
    // Pipelined on one connection. The reply waits for the host until its deadline; by then the
    // daemon knows the host is silent and the dispatch and the stop behind it are refused at once.
    const typed = timed(
      c.request("reply", { id: typist, text: "while stopped", requestId: "typed-stopped" }),
    );
    const dispatch = timed(c.request("dispatch", { profile: "sleeper", requestId: "while-stopped" }));
    const stop = timed(c.request("stop", { id: typist }));
    const list = timed(c.request("list"));
    const waits: Record<string, number> = {};
    for (const [what, pending] of [
      ["reply", typed],
      ["dispatch", dispatch],
      ["stop", stop],
    ] as const) {
      const { answer, ms } = await pending;
      waits[`${what}: busy after, ms`] = ms;
      assert.equal(answer.code, "busy", `${what}: ${JSON.stringify(answer)}`);
      assert.ok(ms < PROMPT_MS, `${what} answered in ${ms} ms`);
    }
    const listed = await list;
    reportFigures(t, { ...waits, "list behind them: served after, ms": listed.ms });
    assert.equal(listed.answer.ok, true);
    // Another connection is served meanwhile too.
    const other = await daemon.connect();
    assert.equal((await other.request("stats")).ok, true);
    other.close();
  } finally {
    continueHost(host);
  }
  // Back: the same requests go through, and what was refused was not done late behind the caller's back.
  const again = await waitFor("the host to answer again", async () => {
    const answer = await c.request("dispatch", { profile: "sleeper", requestId: "after-stop" });
    return answer.ok ? answer : undefined;
  });
  assert.ok(again.result.id);
  const typedAgain = await c.request("reply", { id: typist, text: "after", requestId: "typed-after" });
  assert.equal(typedAgain.ok, true, typedAgain.error);
  const rows = (await c.request("list")).result.rows as Message[];
  assert.equal(rows.find((r) => r.id === typist)!.lifecycle, "running", "the refused stop was not done late");
  assert.equal(rows.length, jobsBefore + 1, "the refused dispatch made no job");
  await waitFor("the reply typed after the host came back", async () =>
    typedLines(daemon, typist).includes("after") ? true : undefined,
  );
  assert.ok(!typedLines(daemon, typist).includes("while stopped"), "the refused reply was not typed late");
  c.close();
});

test("a stopped agent does not hold up the daemon: its replies are queued, other clients served", async (t) => {
  const c = await daemon.connect();
  const { id } = (await c.request("dispatch", { profile: "holder", task: "first" })).result;
  const row = await waitFor("the agent to report", async () => {
    const found = (await c.request("list")).result.rows.find((r: Message) => r.id === id);
    return found?.connected ? found : undefined;
  });
  process.kill(row.pid, "SIGSTOP");
  try {
    let longest = 0;
    for (let i = 0; i < 20; i++) {
      const answer = await timed(c.request("reply", { id, text: `reply ${i}` }));
      longest = Math.max(longest, answer.ms);
      assert.equal(answer.answer.ok, true);
      assert.ok(answer.ms < PROMPT_MS, `reply ${i} answered in ${answer.ms} ms`);
    }
    reportFigures(t, { "replies to a stopped agent": 20, "longest answer, ms": longest });
    assert.equal((await c.request("stats")).ok, true);
  } finally {
    process.kill(row.pid, "SIGCONT");
  }
  c.close();
});

test("shutdown --all while the host is stopped says it could not end the jobs, and the daemon still exits", async (t) => {
  const c = await daemon.connect();
  const host = await hostPidOf(daemon);
  stopHost(host);
  try {
    // Once the daemon knows the host is silent, a dispatch is refused at once.
    await waitFor("the host known silent", async () => {
      const answer = await timed(c.request("dispatch", { profile: "sleeper" }));
      return answer.answer.code === "busy" && answer.ms < 1000 ? true : undefined;
    });
    const pid = daemon.pid;
    const shutdown = await timed(daemon.cli(["shutdown", "--all"]).then((r) => r as Message));
    assert.notEqual(shutdown.answer.code, 0);
    assert.match(shutdown.answer.stderr, /does not answer/);
    await waitForExit(pid);
    reportFigures(t, { "roost shutdown --all, host stopped: the command took, ms": shutdown.ms });
  } finally {
    continueHost(host);
    c.close();
  }
});
