// Concurrent duplicates of every op that takes a request id, cold (the daemon just started, the
// process host not yet up) and warm: exactly one effect each.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Message,
  type RawConnection,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { FAULT_PROFILES, reportFigures, typedLines, untilAsking } from "./helpers/faults.js";

const COPIES = 20;
let daemon: TestDaemon;

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
});
after(async () => {
  await daemon.stop();
});

/** The same request on `COPIES` connections at once; their answers. */
async function sameOnMany(op: string, args: object): Promise<Message[]> {
  const connections: RawConnection[] = await Promise.all(
    Array.from({ length: COPIES }, () => daemon.connect()),
  );
  try {
    return await Promise.all(connections.map((c) => c.request(op, args)));
  } finally {
    for (const c of connections) c.close();
  }
}

async function rows(): Promise<Message[]> {
  const c = await daemon.connect();
  try {
    return (await c.request("list")).result.rows;
  } finally {
    c.close();
  }
}

test("a dispatch resent on 20 connections at once makes one job, cold and warm", async (t) => {
  const jobs = { cold: 0, warm: 0 };
  // Cold: the daemon's socket answers before its process host is up; the first dispatch waits for it.
  for (const [requestId, when] of [
    ["cold-1", "cold"],
    ["warm-1", "warm"],
  ] as const) {
    const answers = await sameOnMany("dispatch", { profile: "typist", requestId });
    for (const a of answers) assert.equal(a.ok, true, `${when}: ${a.error}`);
    const ids = new Set(answers.map((a) => a.result.id));
    jobs[when] = ids.size;
    assert.equal(ids.size, 1, `${when}: one job for every copy`);
  }
  const made = (await rows()).length;
  reportFigures(t, {
    copies: COPIES,
    "dispatch, cold: jobs": jobs.cold,
    "dispatch, warm: jobs": jobs.warm,
    "jobs made": made,
  });
  assert.equal(made, 2);
});

test("a reply resent on 20 connections at once is typed once into a terminal agent, queued once for a protocol agent, warm and cold", async (t) => {
  const c = await daemon.connect();
  const typist = (await c.request("dispatch", { profile: "typist" })).result.id as string;
  const mute = (await c.request("dispatch", { profile: "mute" })).result.id as string;
  c.close();
  await untilAsking(daemon, typist);
  const typed = await sameOnMany("reply", { id: typist, text: "typed-once", requestId: "r-typed" });
  for (const a of typed) assert.equal(a.ok, true, a.error);
  assert.equal(new Set(typed.map((a) => a.result.seq)).size, 1);
  assert.equal(typed.filter((a) => a.result.duplicate === true).length, COPIES - 1);
  await waitFor("the typed line", async () => (typedLines(daemon, typist).length > 0 ? true : undefined));
  // A later line proves that anything typed twice would have arrived by now.
  const later = await sameOnMany("reply", { id: typist, text: "after", requestId: "r-after" });
  assert.equal(later[0]!.ok, true);
  await waitFor("the later line", async () =>
    typedLines(daemon, typist).includes("after") ? true : undefined,
  );
  const typedTimes = typedLines(daemon, typist).filter((l) => l === "typed-once").length;

  const queued = await sameOnMany("reply", { id: mute, text: "queued-once", requestId: "r-queued" });
  for (const a of queued) assert.equal(a.ok, true, a.error);
  assert.equal(new Set(queued.map((a) => a.result.seq)).size, 1);
  const queuedTimes = (await rows()).find((r) => r.id === mute)!.pending;
  reportFigures(t, {
    copies: COPIES,
    "reply, terminal, warm: typed": typedTimes,
    "reply, protocol, warm: queued": queuedTimes,
  });
  assert.equal(typedTimes, 1);
  assert.equal(queuedTimes, 1, "the reply, once");

  // Cold: the daemon just started, its host not yet taken up; the copies come in before it is.
  await daemon.kill("SIGKILL");
  await daemon.start();
  const [typedCold, queuedCold] = await Promise.all([
    sameOnMany("reply", { id: typist, text: "typed-cold", requestId: "r-typed-cold" }),
    sameOnMany("reply", { id: mute, text: "queued-cold", requestId: "r-queued-cold" }),
  ]);
  for (const a of [...typedCold, ...queuedCold]) assert.equal(a.ok, true, a.error);
  await waitFor("the cold typed line", async () =>
    typedLines(daemon, typist).includes("typed-cold") ? true : undefined,
  );
  const laterCold = await sameOnMany("reply", { id: typist, text: "after-cold", requestId: "r-after-cold" });
  assert.equal(laterCold[0]!.ok, true, laterCold[0]!.error);
  await waitFor("the line after it", async () =>
    typedLines(daemon, typist).includes("after-cold") ? true : undefined,
  );
  const typedColdTimes = typedLines(daemon, typist).filter((l) => l === "typed-cold").length;
  const queuedColdTimes = (await rows()).find((r) => r.id === mute)!.pending - queuedTimes;
  reportFigures(t, {
    copies: COPIES,
    "reply, terminal, cold: typed": typedColdTimes,
    "reply, protocol, cold: queued": queuedColdTimes,
  });
  assert.equal(typedColdTimes, 1);
  assert.equal(queuedColdTimes, 1);
});

test("two respawns at once start the job once; two removals remove it once", async (t) => {
  const c = await daemon.connect();
  const id = (await c.request("dispatch", { profile: "quitter" })).result.id as string;
  c.close();
  await waitFor("the quitter to end", async () =>
    (await rows()).find((r) => r.id === id && r.lifecycle === "done") ? true : undefined,
  );
  const respawned = await sameOnMany("respawn", { id });
  for (const a of respawned) assert.equal(a.ok, true, a.error);
  const row = (await rows()).find((r) => r.id === id)!;
  assert.notEqual(row.lifecycle, "failed", row.error);
  const removed = await sameOnMany("rm", { id });
  reportFigures(t, { copies: COPIES, "rm: removed": removed.filter((a) => a.ok).length });
  assert.equal(removed.filter((a) => a.ok).length, 1);
  assert.ok(removed.filter((a) => !a.ok).every((a) => a.code === "not_found"));
  assert.equal(
    (await rows()).find((r) => r.id === id),
    undefined,
  );
});
