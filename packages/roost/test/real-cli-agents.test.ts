// The real Claude Code and Codex as terminal agents, offline against fake model servers of the
// test's own: the task typed at their prompt once, rows that wait with the answer, permission dialogs
// answered by the keys that choose ("No" creates nothing), trust screens left to the person.
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { type Message, waitFor } from "./helpers/daemon.js";
import {
  type FakeModel,
  startFakeAnthropic,
  startFakeChatCompletions,
  startFakeResponses,
} from "./helpers/fake-models.js";
import {
  claudeProfile,
  cliProgram,
  codexProfile,
  piProfile,
  projectFolder,
  realCliSuite,
} from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

interface Case {
  name: "claude" | "codex" | "pi";
  model: () => Promise<FakeModel>;
  profile: (program: string, modelUrl: string, trusted: string[]) => { env: Record<string, string> };
  /** What its dialogs offer; null: it asks no permission and shows no trust screen. */
  dialogs: { gitForTrust: boolean; trust: string; yes: string; no: string } | null;
  /** Its working line's step. */
  step: RegExp;
}

const CASES: Case[] = [
  {
    name: "claude",
    model: startFakeAnthropic,
    profile: claudeProfile,
    dialogs: { gitForTrust: false, trust: "Yes, I trust this folder", yes: "Yes", no: "No" },
    step: /^\S+…$/,
  },
  {
    name: "codex",
    model: startFakeResponses,
    profile: codexProfile,
    // Codex asks to trust a git repository only.
    dialogs: {
      gitForTrust: true,
      trust: "Trust and continue",
      yes: "Yes, proceed",
      no: "No, and tell Codex what to do differently",
    },
    step: /^Working$/,
  },
  { name: "pi", model: startFakeChatCompletions, profile: piProfile, dialogs: null, step: /^Working\.\.\.$/ },
];

/** A CLI takes a few seconds to start on a loaded machine. */
const START_MS = 60_000;

for (const c of CASES) {
  const found = cliProgram(c.name);
  if ("skip" in found) console.log(`# real ${c.name} tests skipped: ${found.skip}`);
  describe(`${c.name} as a terminal agent`, { skip: "skip" in found ? found.skip : false }, () => {
    let trusted = "";
    let untrusted = "";
    let id: string;
    // The profile of the built-in's name replaces it.
    const s = realCliSuite(c.name, (found as { program: string }).program, c.model, c.profile, () => {
      untrusted = projectFolder(c.dialogs?.gitForTrust);
      return [(trusted = projectFolder())];
    });
    after(() => {
      for (const dir of [trusted, untrusted]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    // Idle at its prompt with its turn done, as a pi job says: done, asking nothing.
    const atPrompt = (answer: string) => (r: Message) => r.state === "done" && r.summary === answer;

    test("the task is typed at its prompt and reaches the model once; idle, the row is done with the answer; working shows a step", async () => {
      const answer = await s.conn.request("dispatch", {
        profile: c.name,
        task: "TASK say hello",
        cwd: trusted,
      });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      id = answer.result.id;
      const idle = await rowWhen(s.conn, id, atPrompt("ANSWER: say hello"), START_MS);
      assert.equal(idle.status, "idle");
      assert.equal(idle.waitingFor, null);
      assert.deepEqual(s.model.tasks, ["TASK say hello"]);
      // Row events while it works: its spinner turns many times a second, the row changes seldom.
      const watcher = await s.daemon.connect();
      await watcher.request("subscribe", {});
      const reply = await s.conn.request("reply", { id, text: "TASK SLOW think it over" });
      assert.equal(reply.result.saved, true, JSON.stringify(reply));
      const working = await rowWhen(s.conn, id, (r) => r.status === "busy", START_MS);
      assert.equal(working.state, "working");
      assert.match(working.summary, c.step);
      let rowEvents = 0;
      for (;;) {
        const event = await watcher.nextEvent((e) => e.event === "row" && e.row.id === id, START_MS);
        rowEvents++;
        if (atPrompt("ANSWER: SLOW think it over")(event.row)) break;
      }
      watcher.close();
      assert.ok(rowEvents <= 10, `${rowEvents} row events for one slow turn`);
      assert.deepEqual(s.model.tasks, ["TASK say hello", "TASK SLOW think it over"]);
    });

    const noDialogs = c.dialogs === null ? `${c.name} asks no permission and shows no trust screen` : false;
    const d = c.dialogs!;

    test('a permission dialog waits with the command in its question; "No" creates nothing and the row says it was refused, "Yes" runs it', {
      skip: noDialogs,
    }, async () => {
      await s.conn.request("reply", { id, text: "RUN echo hi > no.txt" });
      const asking = await rowWhen(
        s.conn,
        id,
        (r) => r.state === "blocked" && r.choices.length > 0,
        START_MS,
      );
      assert.match(asking.question, /echo hi > no\.txt/);
      assert.equal(asking.waitingFor, "question");
      assert.ok(asking.choices.includes(d.no), JSON.stringify(asking.choices));
      const no = await s.conn.request("reply", { id, text: d.no });
      assert.equal(no.result?.saved, true, JSON.stringify(no));
      const refused = await rowWhen(s.conn, id, (r) => r.state === "done", START_MS);
      assert.match(refused.summary, /^refused: .*echo hi > no\.txt/);
      assert.equal(existsSync(join(trusted, "no.txt")), false, '"No" ran the command');

      await s.conn.request("reply", { id, text: "RUN echo hi > yes.txt" });
      await rowWhen(s.conn, id, (r) => r.state === "blocked" && /yes\.txt/.test(r.question ?? ""), START_MS);
      const yes = await s.conn.request("reply", { id, text: d.yes });
      assert.equal(yes.result?.saved, true, JSON.stringify(yes));
      await waitFor("yes.txt", async () => existsSync(join(trusted, "yes.txt")) || undefined, START_MS);
      await rowWhen(s.conn, id, atPrompt("ANSWER: the command ran"), START_MS);
    });

    test("a trust screen with a dispatched task waits for the person; the task goes once they trusted the folder", {
      skip: noDialogs,
    }, async () => {
      const answer = await s.conn.request("dispatch", {
        profile: c.name,
        task: "TASK after trust",
        cwd: untrusted,
      });
      const job = answer.result.id as string;
      const trust = await rowWhen(s.conn, job, (r) => r.choices.includes(d.trust), START_MS);
      assert.equal(trust.state, "blocked");
      assert.match(trust.question, /trust/i);
      assert.equal(s.model.tasks.includes("TASK after trust"), false, "the task answered the trust screen");
      // A reply that is none of its choices is refused: nothing is typed into it.
      const other = await s.conn.request("reply", { id: job, text: "just do it" });
      assert.equal(other.code, "bad_request");
      const trusted = await s.conn.request("reply", { id: job, text: d.trust });
      assert.equal(trusted.result?.saved, true, JSON.stringify(trusted));
      await rowWhen(s.conn, job, atPrompt("ANSWER: after trust"), START_MS);
      assert.equal(s.model.tasks.filter((t) => t === "TASK after trust").length, 1);
    });
  });
}
