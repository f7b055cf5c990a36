// No session acts beyond its rights: the concierge's connection is held to the person's policy for
// every op whose record says it starts, stops, answers or wakes a session (the list is read from
// the op records, so a new op cannot be left out); `routine` is the daemon's to decide; twenty
// `concierge on` at once make one concierge; the concierge's name, and names that pass for it,
// are no other session's.
import assert from "node:assert/strict";
import { describe, type TestContext, test } from "node:test";
import { notRoutine } from "../src/daemon/concierge/routine.js";
import { isReservedName, type JobRow, nameKey, OPS, type OpName } from "../src/protocol/index.js";
import { speakFor } from "./helpers/a2a.js";
import { type Concierged, concierged } from "./helpers/concierge-fleet.js";
import { startTestDaemon, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { reportFigures } from "./helpers/faults.js";
import { rowOf } from "./helpers/fixture-agents.js";

const PROFILES = {
  mute: TEST_PROFILES.mute,
  /** A protocol agent that exits at once: its job is `done`, and a delivery would start it again. */
  ender: { command: ["/bin/sh", "-c", "exit 0"], task: "argv", protocol: true },
};

interface Fleet extends Concierged {
  /** A job that has ended (done). */
  ended: string;
}

/** The concierge on, a worker, and a job that has ended. */
async function fleet(t: TestContext): Promise<Fleet> {
  const f = await concierged(t, { agentProfiles: PROFILES, agentExternalMessages: true });
  const { id: ended } = await f.hub.call("dispatch", { profile: "ender", name: "ended" });
  await waitFor("the ender is done", async () =>
    (await rowOf(f.hub, ended))?.lifecycle === "done" ? true : undefined,
  );
  return { ...f, ended };
}

/** The ops the concierge's connection may call whose records say they do something to others. */
function actingOps(): OpName[] {
  return (Object.keys(OPS) as OpName[]).filter((op) => {
    const { callers, effects } = OPS[op] as { callers: readonly string[]; effects: readonly string[] };
    return effects.length > 0 && (callers.includes("concierge") || callers.includes("session"));
  });
}

/** Arguments that would act, for each such op (a new one must be added here: the test says so). */
const ACTING_ARGS: Record<string, (f: Fleet) => Record<string, unknown>> = {
  task: (f) => ({ action: "assign", id: 1, to: f.ended }),
  send: (f) => ({ to: f.ended, message: "wake up" }),
  spawn: () => ({ task: "a child", profile: "mute" }),
  handback: () => ({ state: "done", result: "r" }),
  "concierge-reply": (f) => ({ id: f.worker, text: "yes" }),
  "concierge-act": (f) => ({ what: "respawn", id: f.ended }),
};

test("what is routine: choices, one of them going on, nothing destructive named, the answer one of them", () => {
  const row = (question: string, choices: string[]) => ({ question, choices }) as unknown as JobRow;
  assert.equal(notRoutine(row("Run the tests again?", ["yes", "no"]), "yes"), null);
  assert.equal(notRoutine(row("Run the tests again?", ["yes", "no"]), "2"), null);
  assert.equal(notRoutine(row("Press Enter to continue", ["continue"]), "continue"), null);
  assert.match(notRoutine(row("Tabs or spaces?", []), "tabs") ?? "", /no choices/);
  assert.match(notRoutine(row("Tabs or spaces?", ["tabs", "spaces"]), "tabs") ?? "", /go on/);
  assert.match(notRoutine(row("Deploy to staging?", ["yes", "no"]), "yes") ?? "", /"Deploy"/);
  assert.match(notRoutine(row("Go on?", ["yes", "yes, and force-push"]), "yes") ?? "", /force/);
  assert.match(notRoutine(row("Overwrite x.txt?", ["y", "n"]), "y") ?? "", /Overwrite/);
  assert.match(notRoutine(row("Go on?", ["yes", "no"]), "sure") ?? "", /not one of its choices/);
});

describe("the concierge's rights are the policy's", () => {
  test("every op that acts, on the concierge's connection with act off and answer never, does not act", async (t) => {
    const f = await fleet(t);
    const { hub, concierge, worker, workerConn, ended } = f;
    await workerConn.request("report", {
      id: worker,
      token: workerConn.token,
      report: {
        state: "blocked",
        status: "waiting",
        waitingFor: "question",
        question: "Go on?",
        choices: ["yes", "no"],
      },
    });
    assert.equal((await hub.call("task", { action: "add", title: "one" })).tasks.length, 1);
    const ops = actingOps();
    assert.deepEqual(
      ops.filter((op) => !(op in ACTING_ARGS)),
      [],
      "an op the concierge may call says it acts: give it arguments here",
    );
    const before = (await hub.call("list", {})).rows.length;
    const outcomes: Record<string, string> = {};
    for (const op of ops) {
      const answer = await concierge.request(op, ACTING_ARGS[op]!(f));
      outcomes[op] = answer.ok ? JSON.stringify(answer.result).slice(0, 60) : answer.code;
      const { effects } = OPS[op];
      if (effects.some((e: string) => e !== "wake"))
        assert.equal(answer.code, "policy", `${op}: ${JSON.stringify(answer)}`);
      // Nothing was started, answered or stopped: the ended job is still done, no job was made.
      const row = await rowOf(hub, ended);
      assert.equal(row?.lifecycle, "done", `${op} woke the ended job`);
      assert.equal((await rowOf(hub, worker))?.waitingFor, "question", `${op} answered the worker`);
      assert.equal((await hub.call("list", {})).rows.length, before, `${op} made a job`);
    }
    // What it delivers to the ended session waits on its queue for the person to start it.
    assert.equal(outcomes.send?.includes('"outcome":"queued"'), true, outcomes.send);
    reportFigures(t, { "acting ops tried": ops.length, "acted beyond the policy": 0 });

    // With act on the same ops act: the check is the policy's, not a refusal of the op.
    await hub.call("concierge", { action: "act", act: true });
    const spawned = await concierge.request("spawn", { task: "a child", profile: "mute" });
    assert.equal(spawned.ok, true, JSON.stringify(spawned));
    const woke = await concierge.request("send", { to: ended, message: "now wake up" });
    assert.equal(woke.result?.outcome, "started", JSON.stringify(woke));
  });

  test("answer: routine takes a reply to a routine question only, decided by the daemon", async (t) => {
    const f = await fleet(t);
    const { hub, concierge, worker, workerConn } = f;
    await hub.call("concierge", { action: "answer", answer: "routine" });
    const ask = (question: string, choices: string[]) =>
      workerConn.request("report", {
        id: worker,
        token: workerConn.token,
        report: { state: "blocked", status: "waiting", waitingFor: "question", question, choices },
      });
    const reply = async (text: string) =>
      (await concierge.request("concierge-reply", { id: worker, text })).code ?? "ok";
    await ask("Delete the old branch?", ["yes", "no"]);
    assert.equal(await reply("yes"), "policy", "it names something destructive");
    await ask("Which name do you like?", []);
    assert.equal(await reply("roost"), "policy", "no choices");
    await ask("Pick a colour", ["red", "blue"]);
    assert.equal(await reply("red"), "policy", "no choice says go on");
    await ask("Continue with the next file?", ["continue", "stop here"]);
    assert.equal(await reply("maybe"), "policy", "not one of its choices");
    assert.equal(await reply("/stop"), "policy", "a command reply is the person's");
    assert.equal(await reply("1"), "ok", "a choice by its number");
    await ask("Continue with the next file?", ["continue", "stop here"]);
    assert.equal(await reply("Continue"), "ok");
    assert.equal((await rowOf(hub, worker))?.lifecycle, "running");
  });

  test("twenty concurrent `concierge on` make one concierge", async (t) => {
    const daemon = await startTestDaemon({ config: { agentProfiles: PROFILES } });
    const conns = await Promise.all(Array.from({ length: 20 }, () => daemon.connect()));
    t.after(async () => {
      for (const conn of conns) conn.close();
      await daemon.stop();
    });
    const answers = await Promise.all(
      conns.map((conn) => conn.request("concierge", { action: "on", launch: { profile: "mute" } })),
    );
    for (const answer of answers) assert.equal(answer.ok, true, JSON.stringify(answer));
    const ids = new Set(answers.map((a) => a.result.job.id));
    const { rows } = (await conns[0]!.request("list", {})).result as { rows: JobRow[] };
    const concierges = rows.filter((r) => r.role === "concierge");
    reportFigures(t, { "concurrent on": 20, concierges: concierges.length });
    assert.equal(ids.size, 1, "every answer names the one concierge");
    assert.equal(concierges.length, 1);
    assert.equal(rows.filter((r) => r.name === "concierge").length, 1);
  });
});

describe("the reserved name means one session", () => {
  const LOOK_ALIKES = [
    "Concierge",
    "CONCIERGE",
    "concierge!",
    " concierge ",
    "con\u200bcierge",
    "con\u202ecierge",
    "ｃｏｎｃｉｅｒｇｅ",
    "\u0441oncierge",
    "c o n c i e r g e",
    "con-cierge",
    "c0ncierge",
    "concierge\x1b[0m",
  ];

  test("the folding: look-alikes are the reserved name, other names are not", () => {
    for (const name of LOOK_ALIKES) assert.equal(isReservedName(name), true, JSON.stringify(name));
    for (const name of ["concierge-2", "my concierge", "conciergerie", "worker"])
      assert.equal(isReservedName(name), false, name);
    assert.equal(nameKey("Ｄｅｐｌｏｙ\u200b"), nameKey("deploy"));
  });

  test("dispatch, rename, a report's name, peer_register and a schedule refuse a look-alike with reserved_name", async (t) => {
    const f = await fleet(t);
    const { raw, worker, workerConn } = f;
    const refused: string[] = [];
    for (const name of LOOK_ALIKES) {
      const answers = [
        await raw.request("dispatch", { profile: "mute", name }),
        await raw.request("rename", { id: worker, name }),
        await workerConn.request("report", {
          id: worker,
          token: workerConn.token,
          report: { state: "working", name },
        }),
        await raw.request("peer_register", { session: "/nowhere", name, cwd: "/", pid: process.pid }),
        await raw.request("schedule-add", { when: "every 30m", launch: { profile: "mute", name } }),
      ];
      for (const answer of answers) {
        assert.equal(answer.code, "reserved_name", `${JSON.stringify(name)}: ${JSON.stringify(answer)}`);
        assert.match(answer.error, /looks like "concierge"/);
      }
      refused.push(name);
    }
    reportFigures(t, { "look-alike names": LOOK_ALIKES.length, "ways in": 5, accepted: 0 });
    const cli = await f.daemon.cli(["dispatch", "mute", "--name", "CONCIERGE"]);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /^roost dispatch: reserved_name: name "CONCIERGE" is or looks like "concierge"/);
    assert.deepEqual(refused, LOOK_ALIKES);
  });

  test("names that must pick one job are compared folded; the envelope shows a name that passes for no other", async (t) => {
    const f = await fleet(t);
    const { hub, raw, worker } = f;
    const { id: twin } = await hub.call("dispatch", { profile: "mute", name: "Deploy" });
    const { id: other } = await hub.call("dispatch", { profile: "mute", name: "deploy\u200b" });
    const picked = await raw.request("pin", { id: "DEPLOY" });
    assert.equal(picked.code, "bad_request", "two jobs fold to one name: an id is needed");
    assert.match(picked.error, new RegExp(`${twin}|${other}`));
    const first = await hub.call("dispatch", { profile: "mute" });
    const second = await hub.call("dispatch", { profile: "mute" });
    assert.notEqual(nameKey(first.name), nameKey(second.name));
    // A session named `worker!` does not pass for `worker` in what another session is sent.
    const { id: bang } = await hub.call("dispatch", { profile: "mute", name: "bang" });
    const bangConn = await speakFor(f.daemon, bang, { state: "working", name: "worker!", agentItems: true });
    t.after(() => bangConn.close());
    const sent = await bangConn.request("send", { to: f.cid, message: "hello" });
    assert.equal(sent.ok, true, JSON.stringify(sent));
    const got = await f.concierge.nextEvent((e) => e.event === "deliver" && e.kind === "message");
    assert.match(got.text, /^<agent-message from="worker_" id="[0-9a-f]{8}"/);
    assert.equal((await raw.request("pin", { id: worker })).ok, true);
  });
});
