// Text from a session reaches a person's terminal only made safe: escape sequences (a task titled
// `ESC]0;pwned BEL ESC[2J` would set the window's title and clear the screen), C1 controls, bidi
// overrides and invisible characters in every agent-supplied field (names, summaries, questions,
// choices, task titles, messages, orders) are taken out by every CLI command and by the hub, and
// `--json` keeps them, JSON-escaped.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type HubState, initialHubState } from "../src/hub/hub-state.js";
import { renderHub } from "../src/hub/hub-view.js";
import { terminalSafe, terminalSafeJson } from "../src/protocol/index.js";
import { speakFor } from "./helpers/a2a.js";
import { startTestDaemon, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { reportFigures } from "./helpers/faults.js";
import { jobRow, NOW } from "./helpers/job-row.js";

/** Every kind of thing a terminal acts on: OSC (title), CSI (clear), C1 CSI, DCS, bidi, zero-width, BEL. */
const HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\u200b\x1bP+q\x1b\\\x07\u2066x\u2069";

/** What must never reach the terminal from an agent's text (the hub's own SGR styles aside). */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

/** Shown text holds nothing a terminal acts on; in human output the sequences went whole, their payload too. */
function assertSafe(output: string, where: string, { styles = false, json = false } = {}): void {
  const text = styles ? output.replace(/\x1b\[[0-9;]*m/g, "") : output;
  const found = UNSAFE.exec(text);
  assert.equal(
    found,
    null,
    `${where}: ${JSON.stringify(found?.[0])} in ${JSON.stringify(text.slice(0, 300))}`,
  );
  if (!json) assert.doesNotMatch(text, /pwned/, `${where}: the title sequence's text showed`);
}

describe("terminalSafe", () => {
  test("takes out OSC, CSI, DCS and two-character sequences, 7-bit and 8-bit, up to their terminators", () => {
    assert.equal(terminalSafe("\x1b]0;pwned\x07title\x1b[2J"), "title");
    assert.equal(terminalSafe("a\x1b]2;t\x1b\\b\x9d0;t\x9cc"), "abc");
    assert.equal(terminalSafe("\x9b31mred\x1b[0m"), "red");
    assert.equal(terminalSafe("\x1bP+q544e\x1b\\after"), "after");
    assert.equal(terminalSafe("\x1bcreset\x1b7"), "reset");
    assert.equal(terminalSafe("an unterminated \x1b]0;title"), "an unterminated ");
  });

  test("takes out bidi overrides and invisible characters, keeps a joined emoji and accents", () => {
    assert.equal(terminalSafe("abc\u202edef\u2066g\u2069\u200b\u200d\ufeff\u00ad\u{e0041}"), "abcdefg");
    assert.equal(terminalSafe("👩\u200d💻 and é"), "👩\u200d💻 and é");
  });

  test("controls become a space; with lines, line breaks are kept as \\n", () => {
    assert.equal(terminalSafe("a\r\nb\tc\x00\x7fd"), "a b c d");
    assert.equal(terminalSafe("a\r\nb\rc\u2028d\te", { lines: true }), "a\nb\nc\nd e");
  });

  test("terminalSafeJson: the same value, its controls, C1, separators and invisible characters \\u-escaped", () => {
    const value = { text: HOSTILE, list: ["\u2028", "ok"] };
    const json = terminalSafeJson(value, 2);
    assertSafe(json.replace(/\n/g, " "), "json", { json: true });
    assert.deepEqual(JSON.parse(json), value);
  });
});

describe("every CLI command and the hub show agent text safely", () => {
  test("ls, describe, events, tasks and concierge orders (human and --json) from hostile sessions", async (t) => {
    const daemon = await startTestDaemon({
      config: { agentProfiles: { mute: TEST_PROFILES.mute }, agentExternalMessages: true },
    });
    t.after(() => daemon.stop());
    const hub = await daemon.connect();
    t.after(() => hub.close());
    const dispatch = async (name: string) =>
      (await hub.request("dispatch", { profile: "mute", name })).result.id as string;
    const a = await dispatch("alpha");
    const b = await dispatch("beta");
    const question = `Which way${HOSTILE}?\nthe second line of the question\nand a third`;
    const aConn = await speakFor(daemon, a, {
      state: "blocked",
      status: "waiting",
      waitingFor: "question",
      name: `alpha${HOSTILE}`,
      summary: `summary ${HOSTILE}`,
      question,
      choices: [`left${HOSTILE}`, "right"],
      agentItems: true,
    });
    t.after(() => aConn.close());
    const bConn = await speakFor(daemon, b, { state: "working", agentItems: true });
    t.after(() => bConn.close());
    const added = await aConn.request("task", { action: "add", title: `title ${HOSTILE}`, detail: HOSTILE });
    assert.equal(added.ok, true, JSON.stringify(added));
    const claimed = await bConn.request("task", { action: "claim", id: 1 });
    assert.equal(claimed.ok, true, JSON.stringify(claimed));
    await bConn.request("task", { action: "done", id: 1, result: `result ${HOSTILE}` });
    assert.equal((await aConn.request("send", { to: b, message: `message ${HOSTILE}` })).ok, true);
    const on = await hub.request("concierge", { action: "on", launch: { profile: "mute" } });
    const concierge = await speakFor(daemon, on.result.job.id, { state: "working", agentItems: true });
    t.after(() => concierge.close());
    const ordered = await concierge.request("concierge-order", { action: "add", text: `order ${HOSTILE}` });
    assert.equal(ordered.ok, true, JSON.stringify(ordered));
    await concierge.request("concierge-say", { kind: "info", text: `said ${HOSTILE}` });
    await waitFor("the question in the feed", async () =>
      (await hub.request("events", {})).result.events.some((e: { why: string }) => e.why === "state")
        ? true
        : undefined,
    );

    const commands = [
      ["ls"],
      ["describe", a],
      ["events"],
      ["events", "--id", a],
      ["tasks"],
      ["concierge", "orders"],
      ["concierge", "status"],
      ["reply", `alpha${HOSTILE}x`, "hi"],
    ];
    for (const args of commands) {
      const human = await daemon.cli(args);
      assertSafe(human.stdout, `roost ${args.join(" ")}`);
      // A refusal quotes what it was given as JSON: escaped, never raw.
      assertSafe(human.stderr, `roost ${args.join(" ")} (stderr)`, { json: true });
      const json = await daemon.cli([...args, "--json"]);
      assertSafe(json.stdout.replace(/\n/g, " "), `roost ${args.join(" ")} --json`, { json: true });
    }
    // What the agents said is there, its escapes JSON-escaped: the data is whole.
    const tasks = JSON.parse((await daemon.cli(["tasks", "--json"])).stdout);
    assert.equal(tasks.tasks[0].title, `title ${HOSTILE}`);
    assert.match((await daemon.cli(["tasks", "--json"])).stdout, /\\u001b\]0;pwned\\u0007/);
    const orders = JSON.parse((await daemon.cli(["concierge", "orders", "--json"])).stdout);
    assert.equal(orders.orders[0].text, `order ${HOSTILE}`);
    // A question of several lines goes on under its event, indented to its text.
    const events = (await daemon.cli(["events", "--id", a])).stdout.split("\n");
    const asks = events.findIndex((line) => /job\/state\s+alpha.*asks: Which way/.test(line));
    assert.ok(asks >= 0, events.join("\n"));
    const indent = events[asks]!.indexOf("alpha");
    assert.equal(events[asks + 1], `${" ".repeat(indent)}the second line of the question`);
    assert.equal(events[asks + 2], `${" ".repeat(indent)}and a third`);
    reportFigures(t, { "commands tried": commands.length * 2, "unsafe characters shown": 0 });
  });

  test("the hub: rows, questions, choices, panes, the concierge's line, details and notices", () => {
    const hostileRow = jobRow("a1b2c3d4", {
      name: `name${HOSTILE}`,
      summary: `summary${HOSTILE}`,
      state: "blocked",
      status: "waiting",
      waitingFor: "question",
      question: `question${HOSTILE}\nline two`,
      choices: [`choice${HOSTILE}`, "two"],
      error: `error${HOSTILE}`,
      tool: `tool${HOSTILE}`,
      cwd: `/srv/${HOSTILE}`,
      suggested: { text: `suggested${HOSTILE}`, why: `why${HOSTILE}`, at: new Date(NOW).toISOString() },
      held: { text: `held${HOSTILE}`, at: new Date(NOW).toISOString() },
    } as never);
    const base = (): HubState => {
      const state = initialHubState();
      state.connection = "connected";
      state.rows = new Map([[hostileRow.id, hostileRow]]);
      state.events = [
        { at: new Date(NOW).toISOString(), who: `who${HOSTILE}`, kind: "message", text: `text${HOSTILE}` },
      ];
      state.board = {
        counts: { open: 1, claimed: 0, blocked: 0, done: 0 },
        tasks: [{ id: "1", title: `task${HOSTILE}`, state: "claimed", owner: `owner${HOSTILE}` }],
      };
      state.schedules = [
        { id: "1", name: `schedule${HOSTILE}`, when: `every 30m${HOSTILE}`, next: null, paused: false },
      ];
      state.concierge = {
        status: {
          running: true,
          failed: null,
          unavailable: null,
          job: { id: "c", name: "concierge", lifecycle: "running", connected: true },
          policy: { answer: "never", act: false },
          answered: 0,
          orders: 1,
          undoable: null,
        },
        said: { kind: "need", text: `said${HOSTILE}`, at: new Date(NOW).toISOString() },
        orders: [
          {
            id: 1,
            text: `order${HOSTILE}`,
            when: null,
            by: "concierge",
            at: "",
            lastAt: null,
            nextAt: null,
            count: 0,
          },
        ],
      };
      state.notice = { text: `refused: bad_request: no job "x${HOSTILE}"`, tone: "error" };
      return state;
    };
    const screens: [string, HubState][] = [];
    for (const pane of ["events", "board", "schedules", "orders"] as const) {
      const state = base();
      state.pane = pane;
      screens.push([`the ${pane} pane`, state]);
    }
    const confirm = base();
    confirm.mode = { kind: "confirm", action: "remove", id: hostileRow.id };
    screens.push(["a confirmation", confirm]);
    const detail = base();
    detail.mode = { kind: "detail", id: hostileRow.id, scroll: 0 };
    detail.detail = {
      id: hostileRow.id,
      error: null,
      result: {
        row: hostileRow,
        command: [`cmd${HOSTILE}`],
        lastLines: [`line${HOSTILE}`],
        parent: { id: "p", name: `parent${HOSTILE}`, lifecycle: "running" },
        children: [{ id: "k", name: `child${HOSTILE}`, lifecycle: "running" }],
        sameName: [{ id: "s", name: `same${HOSTILE}`, lifecycle: "done" }],
        events: [
          {
            at: new Date(NOW).toISOString(),
            kind: "job",
            why: "state",
            text: `event${HOSTILE}`,
            who: `w${HOSTILE}`,
          },
        ],
      },
    } as never;
    screens.push(["the details", detail]);
    for (const [what, state] of screens)
      for (const [width, height] of [
        [80, 24],
        [200, 50],
      ] as const)
        for (const line of renderHub(state, width, height, NOW))
          assertSafe(line, `${what} at ${width}`, { styles: true });
  });
});
