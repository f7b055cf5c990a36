// Terminal agents under real pseudo-terminals: rows read from their screens, replies typed into them.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LIMITS } from "../src/protocol/index.js";
import {
  jobSecrets,
  type RawConnection,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { dispatchTerminal, receivedLines, rowWhen, TERMINAL_PROFILES } from "./helpers/terminal.js";

describe("terminal agents", () => {
  let daemon: TestDaemon;
  let conn: RawConnection;

  before(async () => {
    // A program that prints nothing takes its task after this long (10 s by default).
    process.env.ROOST_TERMINAL_SILENT_MS = "1500";
    // A program is typed into after this much quiet (300 ms by default): a loaded machine can pause
    // a program that still draws for longer than that.
    process.env.ROOST_TERMINAL_READY_QUIET_MS = "1000";
    const asker = { ...TERMINAL_PROFILES.proceed, protocol: true };
    const pasteTask = { ...TERMINAL_PROFILES.paste, task: "type" };
    daemon = await startTestDaemon({ config: { agentProfiles: { ...TERMINAL_PROFILES, asker, pasteTask } } });
    conn = await daemon.connect();
  });

  after(async () => {
    conn?.close();
    await daemon?.stop();
  });

  test("a [y/N] prompt blocks the row with y and n; the answer typed reaches the script once", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "proceed");
    const blocked = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(blocked.waitingFor, "question");
    assert.equal(blocked.question, "Proceed? [y/N]");
    assert.deepEqual(blocked.choices, ["y", "n"]);
    assert.equal(blocked.status, "waiting");
    assert.equal(blocked.reported, false);
    const answer = await conn.request("reply", { id, text: "y", requestId: "proceed-1" });
    assert.equal(answer.ok, true);
    const done = await rowWhen(conn, id, (r) => r.summary === "deployed v2");
    assert.equal(done.state, "working");
    assert.equal(done.question, null);
    assert.deepEqual(done.choices, []);
    // The same request again is taken once: not typed a second time.
    const again = await conn.request("reply", { id, text: "y", requestId: "proceed-1" });
    assert.equal(again.result.duplicate, true);
    assert.deepEqual(receivedLines(dir), ["got [y]"]);
    const idle = await rowWhen(conn, id, (r) => r.status === "idle");
    assert.equal(idle.summary, "deployed v2");
    // What it printed is kept in its folder too (the host's log, capped and rotated).
    await waitFor("the terminal log", async () =>
      readFileSync(join(dir, "terminal.log"), "utf8").includes("deployed v2") ? true : undefined,
    );
  });

  test("a protocol agent's row is read from its screen until its first report, then from its reports", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "asker");
    const screenRow = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(screenRow.kind, "protocol");
    assert.equal(screenRow.reported, false);
    assert.equal(screenRow.question, "Proceed? [y/N]");
    const secret = (await jobSecrets(daemon.stateDir)).find((j) => j.id === id)!;
    const agent = await daemon.connect();
    try {
      const answer = await agent.request("report", {
        id,
        token: secret.token,
        report: { state: "working", status: "busy", summary: "reported now" },
      });
      assert.equal(answer.ok, true);
      const reported = await rowWhen(conn, id, (r) => r.reported === true);
      assert.equal(reported.summary, "reported now");
      assert.equal(reported.state, "working");
      assert.equal(reported.question, null);
    } finally {
      agent.close();
    }
  });

  test("a numbered menu offers its items; picking one types its number as keys, seen typed before Enter", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "menu");
    const blocked = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(blocked.question, "Pick a fruit:");
    assert.deepEqual(blocked.choices, ["apple", "pear", "plum"]);
    // Not one of its items: refused, nothing typed.
    const other = await conn.request("reply", { id, text: "banana" });
    assert.equal(other.code, "bad_request");
    // The options first, so that a line cut at the edge of a terminal still shows them.
    assert.match(other.error, /^menu takes one of: apple \| pear \| plum \(it asks "Pick a fruit:"\)$/);
    const answer = await conn.request("reply", { id, text: "pear" });
    assert.equal(answer.result.saved, true);
    await rowWhen(conn, id, (r) => r.summary === "you picked 2");
    assert.deepEqual(receivedLines(dir), ["got [2]"]);
  });

  test("a menu with a highlighted item is answered by arrows and Enter once the highlight is read back, never pasted", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "pointerMenu");
    const blocked = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(blocked.question, "Do you want to proceed?");
    assert.deepEqual(blocked.choices, ["Yes", "Yes, and don't ask again", "No"]);
    const answer = await conn.request("reply", { id, text: "No" });
    assert.equal(answer.result.saved, true, JSON.stringify(answer));
    await rowWhen(conn, id, (r) => r.summary === "you chose No");
    assert.deepEqual(receivedLines(dir), ["chose No"]);
  });

  // Keys typed as the menu is drawn are dropped (as Codex drops them when it switches screens): the
  // arrows wait until it reads keys, and an Enter it dropped is pressed again; the option is taken once.
  for (const [profile, option] of [
    ["dropsKeys", "No"],
    ["dropsEnter", "Yes"],
  ] as const) {
    test(`a menu that drops the keys typed as it is drawn (${profile}) takes "${option}" once`, async () => {
      const { id, dir } = await dispatchTerminal(daemon, conn, profile);
      await rowWhen(conn, id, (r) => r.state === "blocked");
      const answer = await conn.request("reply", { id, text: option });
      assert.equal(answer.result?.saved, true, JSON.stringify(answer));
      await rowWhen(conn, id, (r) => r.summary === `you chose ${option}`);
      assert.deepEqual(receivedLines(dir), [`chose ${option}`]);
    });
  }

  test("a menu whose highlight does not follow the arrows: the reply is refused (not_chosen), nothing taken", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "stuckMenu");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const answer = await conn.request("reply", { id, text: "No", requestId: "stuck-1" });
    assert.equal(answer.ok, false);
    assert.equal(answer.code, "not_chosen");
    assert.match(
      answer.error,
      /"No" was not highlighted after the arrow keys \("Yes" is highlighted\); Enter was not pressed/,
    );
    const row = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(row.pending, 0);
    assert.deepEqual(receivedLines(dir), []);
  });

  test("a reply while the agent works, or to another question, is held; it shows beside the question until sent", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "asksLater");
    await rowWhen(conn, id, (r) => r.summary === "working on the deploy");
    const answer = await conn.request("reply", { id, text: "y", requestId: "later-1" });
    assert.deepEqual(answer.result, { held: true, saved: false });
    // A resend of the same request: held already, not held twice.
    const again = await conn.request("reply", { id, text: "y", requestId: "later-1" });
    assert.deepEqual(again.result, { held: true, saved: false, duplicate: true });
    writeFileSync(join(dir, "go"), "");
    const asking = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(asking.question, "Proceed? [y/N]");
    assert.equal(asking.held.text, "y");
    // Nothing typed into the question nobody saw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(receivedLines(dir), []);
    // A reply to another question than the one it asks now is held too, in place of the first.
    const other = await conn.request("reply", { id, text: "n", question: "Delete the database? [y/N]" });
    assert.deepEqual(other.result, { held: true, saved: false });
    assert.equal((await rowWhen(conn, id, (r) => r.held?.text === "n")).question, "Proceed? [y/N]");
    // The question a reply answers is a row's question: at most as long.
    const long = await conn.request("reply", { id, text: "y", question: "q".repeat(LIMITS.question + 1) });
    assert.equal(long.code, "bad_request");
    assert.match(long.error, /question is longer than 2000 characters/);
    const atLimit = await conn.request("reply", { id, text: "n", question: "q".repeat(LIMITS.question) });
    assert.deepEqual(atLimit.result, { held: true, saved: false });
    const sent = await conn.request("reply", { id, held: "send", question: "Proceed? [y/N]" });
    assert.equal(sent.result.saved, true, JSON.stringify(sent));
    const done = await rowWhen(conn, id, (r) => r.summary === "answered n");
    assert.equal(done.held, null);
    assert.deepEqual(receivedLines(dir), ["got [n]"]);
  });

  test("steer is refused for a terminal agent: a reply is its next input", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const answer = await conn.request("reply", { id, text: "y", mode: "steer" });
    assert.equal(answer.code, "unsupported");
    assert.match(answer.error, /terminal agent/);
  });

  test("the window title is the row's text when the program sets one", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "title");
    const row = await rowWhen(conn, id, (r) => r.summary !== null);
    assert.equal(row.summary, "building the docs");
    assert.equal(row.state, "working");
  });

  test("a full-screen program is read past its frame; a reply while it asks nothing is held, not typed", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "fullscreen");
    const row = await rowWhen(conn, id, (r) => r.summary === "compiling src/main.c");
    assert.equal(row.state, "working");
    const answer = await conn.request("reply", { id, text: "q" });
    assert.deepEqual(answer.result, { held: true, saved: false });
    const held = await rowWhen(conn, id, (r) => r.held !== null);
    assert.equal(held.held.text, "q");
    assert.deepEqual(receivedLines(dir), []);
    // Sent while it still asks nothing: it stays held. Dropped: gone from the row.
    assert.deepEqual((await conn.request("reply", { id, held: "send" })).result, {
      held: true,
      saved: false,
    });
    assert.deepEqual((await conn.request("reply", { id, held: "drop" })).result, {
      dropped: true,
      saved: false,
    });
    await rowWhen(conn, id, (r) => r.held === null);
    const none = await conn.request("reply", { id, held: "drop" });
    assert.equal(none.code, "bad_request");
    assert.deepEqual(receivedLines(dir), []);
  });

  test("a profile's blockedPatterns make its own prompts questions; a bad one is refused with its key", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "deploy");
    const blocked = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(blocked.question, "SHIP to continue");
    await conn.request("reply", { id, text: "SHIP" });
    await rowWhen(conn, id, (r) => r.summary === "got SHIP");
    assert.equal(dir.length > 0, true);
  });

  test("a program that exits while asking: the row stops asking; a reply with start starts it again and is held at its new question", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "givesUp");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    writeFileSync(join(dir, "give-up"), "");
    const ended = await rowWhen(conn, id, (r) => r.lifecycle === "done");
    assert.equal(ended.question, null);
    assert.equal(ended.summary, "gave up waiting");
    // Its command would run anew: refused unless the reply says to start it.
    assert.equal(ended.restart, "reruns");
    const refused = await conn.request("reply", { id, text: "y" });
    assert.equal(refused.code, "ended");
    assert.match(refused.error, /--start/);
    assert.equal((await rowWhen(conn, id, (r) => r.lifecycle === "done")).restarts, 0);
    const answer = await conn.request("reply", { id, text: "y", start: true });
    assert.deepEqual(answer.result, { held: true, saved: false, started: "reruns" });
    const asking = await rowWhen(conn, id, (r) => r.lifecycle === "running" && r.state === "blocked");
    assert.equal(asking.held.text, "y");
    assert.deepEqual(receivedLines(dir), []);
    assert.equal((await conn.request("reply", { id, held: "send" })).result.saved, true);
    await rowWhen(conn, id, (r) => r.summary === "continuing" && r.lifecycle === "running");
    assert.deepEqual(receivedLines(dir), ["run 2 got [y]"]);
  });

  test("a program that turned bracketed paste on gets the reply pasted, then Enter", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "paste");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    await conn.request("reply", { id, text: "hello there" });
    const lines = await waitFor("the pasted line", async () => {
      const got = receivedLines(dir);
      return got.length > 0 ? got : undefined;
    });
    assert.deepEqual(lines, [String.raw`'\x1b[200~hello there\x1b[201~\n'`]);
  });

  test("a task given as the first reply is typed once the program is ready, pasted when it asks so", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "pasteTask", "the first task");
    await rowWhen(conn, id, (r) => r.summary === "thanks");
    assert.deepEqual(receivedLines(dir), [String.raw`'\x1b[200~the first task\x1b[201~\n'`]);
  });

  test("a task waits through a dialog shown first: the person answers it, then the task is typed at the prompt", async () => {
    const { id, dir } = await dispatchTerminal(daemon, conn, "asksFirst", "build it");
    const asking = await rowWhen(conn, id, (r) => r.state === "blocked");
    assert.equal(asking.question, "Trust this folder? [y/N]");
    // Quiet at its dialog well past the time a program roost knows nothing of is given: not typed.
    await waitFor("a quiet second", async () =>
      Date.now() - Date.parse(asking.updatedAt) > 1500 ? true : undefined,
    );
    assert.deepEqual(receivedLines(dir), []);
    assert.equal((await conn.request("reply", { id, text: "y" })).result.saved, true);
    await rowWhen(conn, id, (r) => r.summary === "doing build it");
    assert.deepEqual(receivedLines(dir), ["trust [y]", "task [build it]"]);
  });

  test("a task is typed at a prompt once the screen is quiet: a prompt shown while the screen is still drawn may drop it", async () => {
    const { dir } = await dispatchTerminal(daemon, conn, "promptDrawing", "after the drawing");
    const lines = await waitFor("the task", async () => {
      const got = receivedLines(dir);
      return got.length > 0 ? got : undefined;
    });
    assert.deepEqual(lines, [String.raw`'\x1b[200~after the drawing\x1b[201~\n'`]);
  });

  test("a program that prints nothing gets its task typed after a while all the same", async () => {
    const { dir } = await dispatchTerminal(daemon, conn, "silent", "hello");
    const lines = await waitFor("the task", async () => {
      const got = receivedLines(dir);
      return got.length > 0 ? got : undefined;
    });
    assert.deepEqual(lines, ["got [hello]"]);
  });

  test("/stop stops a terminal agent", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "title");
    await rowWhen(conn, id, (r) => r.lifecycle === "running");
    const answer = await conn.request("reply", { id, text: "/stop" });
    assert.equal(answer.result.stopped, true);
    await rowWhen(conn, id, (r) => r.lifecycle === "stopped");
  });

  test("a bad blockedPatterns is refused at dispatch, naming the profile and the pattern", async () => {
    const config = join(daemon.home, "roost.json");
    const good = readFileSync(config, "utf8");
    const profiles = { ...TERMINAL_PROFILES, broken: { command: ["true"], blockedPatterns: ["(unclosed"] } };
    // roost.json is read on every dispatch: the bad pattern is refused without a restart.
    writeFileSync(config, JSON.stringify({ agentProfiles: profiles }));
    try {
      const answer = await conn.request("dispatch", { profile: "broken" });
      assert.equal(answer.ok, false);
      assert.equal(answer.code, "bad_request");
      assert.match(
        answer.error,
        /agentProfiles\.broken\.blockedPatterns\[0\] is not a valid regular expression/,
      );
    } finally {
      writeFileSync(config, good);
    }
  });
});
