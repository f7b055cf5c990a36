import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, type TestContext, test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { HubConnection } from "../src/hub/hub-connection.js";
import { HubFeeds } from "../src/hub/hub-feeds.js";
import { initialHubState } from "../src/hub/hub-state.js";
import { startTestDaemon, waitFor } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG, type HubHarness, startHubHarness } from "./helpers/hub-harness.js";
import type { HeadlessTerminal } from "./helpers/hub-terminal.js";
import { TERMINAL_PROFILES } from "./helpers/terminal.js";

const ESC = "\x1b";
const TAB = "\t";
const ENTER = "\r";
const HOME = "\x1b[H";

/** A hub on a daemon of its own, with what `roost attach` would have been asked to attach. */
interface Hub {
  h: HubHarness;
  attached: { id: string; drawnWhileHubStopped: boolean }[];
  /** Gives the terminal back, as the detach key would. */
  detach(): void;
}

/** A real daemon and a hub on it in a headless terminal, ended with the test. */
async function openHub(t: TestContext): Promise<Hub> {
  const hub: Hub = { h: undefined as unknown as HubHarness, attached: [], detach: () => {} };
  // Stands in for `roost attach` (another part of the project): draws its own screen while it has
  // the terminal, and gives it back when told.
  const attach = (id: string, terminal: HeadlessTerminal) =>
    new Promise<void>((resolve) => {
      hub.attached.push({ id, drawnWhileHubStopped: !terminal.started });
      terminal.write("\x1b[2J\x1b[Hthe session's own screen");
      hub.detach = resolve;
    });
  hub.h = await startHubHarness(100, 30, { attach });
  t.after(() => hub.h.close());
  return hub;
}

/** Two agents on the hub's daemon, `alpha` (with a task) above `beta`, each drawn with its first report. */
async function twoAgents(h: HubHarness): Promise<{ alpha: string; beta: string }> {
  const alpha = (await h.raw.request("dispatch", { profile: "agent", name: "alpha", task: "first task" }))
    .result.id;
  const beta = (await h.raw.request("dispatch", { profile: "agent", name: "beta" })).result.id;
  await h.waitForScreen("alpha's first report", (s) => /alpha +working +got: first task/.test(s));
  await h.waitForScreen("beta's first report", (s) => /beta +working +ready/.test(s));
  return { alpha, beta };
}

const typeText = (h: HubHarness, text: string) => h.terminal.type(...[...text]);
const selectedLine = async (h: HubHarness) =>
  (await h.terminal.screen()).find((line) => line.startsWith("›"));
const count = (list: string[], text: string) => list.filter((t) => t === text).length;

/** Selects the row named `name`: Home, then down until it is the selected one, as drawn. */
async function select(h: HubHarness, name: string): Promise<void> {
  const selectedName = () => h.hub.state.rows.get(h.hub.state.selectedId ?? "")?.name;
  h.terminal.type(HOME);
  for (let i = 0; i < 20 && selectedName() !== name; i++) h.terminal.type("j");
  assert.equal(selectedName(), name, `a row named ${name} to select`);
  await waitFor(`${name} drawn selected`, async () =>
    new RegExp(`\\b${name}\\b`).test((await selectedLine(h)) ?? "") ? true : undefined,
  );
}

// Each test has a daemon and a hub of its own, so they run side by side.
describe("the hub against a real daemon", { concurrency: 3 }, () => {
  test("rows appear and change as agents report", async (t) => {
    const { h } = await openHub(t);
    await h.waitForScreen(
      "the connected, empty hub",
      (s) => s.includes("No sessions yet") && s.includes("● daemon"),
    );
    const { alpha } = await twoAgents(h);
    await h.raw.request("reply", { id: alpha, text: "say:halfway there" });
    const screen = await h.waitForScreen("alpha's new summary", (s) => s.includes("halfway there"));
    assert.match(screen, /2 sessions/);
    assert.doesNotMatch(screen, /got: first task/);
  });

  test("a reply typed in the hub reaches the agent once", async (t) => {
    const { h } = await openHub(t);
    const { alpha } = await twoAgents(h);
    assert.match((await selectedLine(h)) ?? "", /alpha/, "the first row is selected");
    h.terminal.type(ENTER);
    typeText(h, "hello hub");
    await h.waitForScreen("the editor line under alpha", (s) => s.includes("⤷ reply › hello hub"));
    h.terminal.type(ENTER);
    await h.waitForScreen("the outcome", (s) => /Reply #\d+ saved for alpha/.test(s));
    await h.waitForScreen("alpha's report of it", (s) => s.includes("got: hello hub"));
    await new Promise((r) => setTimeout(r, 300)); // A second delivery would land by now.
    assert.equal(count(h.received(alpha), "hello hub"), 1);
    assert.doesNotMatch(await h.terminal.text(), /⤷ reply/, "the editor line closed");
  });

  test("a waiting row stands out, Tab jumps to it, and a digit picks its choice", async (t) => {
    const { h } = await openHub(t);
    const { beta } = await twoAgents(h);
    await h.raw.request("reply", { id: beta, text: "ask" });
    const screen = await h.waitForScreen("beta's question", (s) => s.includes("Proceed with the plan?"));
    assert.match(screen, /1 waiting/);
    assert.match(screen, /\? beta +waiting/);
    assert.match(screen, /1 yes {2}2 no {2}3 later/);
    h.terminal.type(TAB);
    await waitFor("beta selected", async () =>
      (await selectedLine(h))?.includes("beta") ? true : undefined,
    );
    h.terminal.type("2");
    await h.waitForScreen("the pick's outcome", (s) => /Reply #\d+ saved for beta/.test(s));
    await h.waitForScreen("beta working on the answer", (s) => s.includes("got: no"));
    assert.equal(count(h.received(beta), "no"), 1);
    assert.doesNotMatch(await h.terminal.text(), /Proceed with the plan\?/);
  });

  test("stop and respawn from the hub", async (t) => {
    const { h } = await openHub(t);
    const { beta } = await twoAgents(h);
    await select(h, "beta");
    h.terminal.type("x");
    await h.waitForScreen("the confirmation", (s) => s.includes("Stop beta?  y: stop  n: keep running"));
    h.terminal.type("y");
    await h.waitForScreen("beta stopped", (s) => /■ beta +stopped/.test(s) && s.includes("Stopped beta."));
    // A refusal shows with its code and reason: a command reply needs the agent connected.
    h.terminal.type(ENTER);
    typeText(h, "/compact");
    h.terminal.type(ENTER);
    await h.waitForScreen("the refusal", (s) =>
      /Reply to beta refused: unsupported: a command reply/.test(s),
    );
    h.terminal.type("o");
    await h.waitForScreen(
      "beta running again",
      (s) => /● beta +working/.test(s) && s.includes("Started beta again."),
    );
    const rows = (await h.raw.request("list")).result.rows as { id: string; lifecycle: string }[];
    assert.equal(rows.find((r) => r.id === beta)?.lifecycle, "running");
  });

  test("filter rows by text", async (t) => {
    const { h } = await openHub(t);
    await twoAgents(h);
    h.terminal.type("/");
    typeText(h, "bet");
    let screen = await h.waitForScreen("the filter applied as typed", (s) => s.includes('filter "bet" (1)'));
    assert.doesNotMatch(screen, /alpha/);
    h.terminal.type(ENTER);
    screen = await h.waitForScreen("the filter kept", (s) => s.includes("Enter reply"));
    assert.match(screen, /beta/);
    assert.doesNotMatch(screen, /alpha/);
    h.terminal.type(ESC);
    await h.waitForScreen("the filter cleared", (s) => s.includes("alpha") && !s.includes('filter "'));
  });

  test("resizes cleanly, down to 80x24 and up again", async (t) => {
    const { h } = await openHub(t);
    await twoAgents(h);
    for (const [columns, rows] of [
      [80, 24],
      [132, 40],
      [80, 24],
    ] as const) {
      h.terminal.resize(columns, rows);
      await h.waitForScreen(`the hints on the last line at ${columns}x${rows}`, (s) => {
        const lines = s.split("\n");
        return (
          lines.length === rows && lines[rows - 1]!.includes("Enter reply") && lines[0]!.includes("roost hub")
        );
      });
      const lines = await h.terminal.screen();
      for (const line of lines)
        assert.ok(visibleWidth(line) <= columns, `a line fits in ${columns}: ${line}`);
      assert.equal(lines.filter((l) => /\balpha\b/.test(l)).length, 1, "alpha drawn once, no leftovers");
      assert.equal(lines.filter((l) => l.includes("roost hub")).length, 1, "one title line");
    }
  });

  test("pin, rename and reorder", async (t) => {
    const { h } = await openHub(t);
    const { beta } = await twoAgents(h);
    // Move beta up above alpha, then pin it, then rename it.
    await select(h, "beta");
    h.terminal.type("K");
    await h.waitForScreen(
      "beta moved up",
      (s) => s.indexOf("beta") < s.indexOf("alpha") && s.includes("Moved beta up."),
    );
    h.terminal.type("p");
    await h.waitForScreen("beta pinned", (s) => /beta .*⚑/.test(s));
    h.terminal.type("R", "\x15"); // R, then Ctrl-U clears the name.
    typeText(h, "gamma");
    await h.waitForScreen("the rename line", (s) => s.includes("⤷ rename › gamma"));
    h.terminal.type(ENTER);
    await h.waitForScreen(
      "the new name",
      (s) => /gamma +working/.test(s) && s.includes("Renamed beta to gamma."),
    );
    const rows = (await h.raw.request("list")).result.rows as { id: string; name: string; pinned: boolean }[];
    const row = rows.find((r) => r.id === beta)!;
    assert.equal(row.name, "gamma");
    assert.equal(row.pinned, true);
  });

  test("dispatch a new job from a profile with a task, in the selected row's folder", async (t) => {
    const { h } = await openHub(t);
    await twoAgents(h);
    const before = (await h.raw.request("list")).result.rows as { name: string; cwd: string }[];
    // Both rows share a folder: the selected one's, wherever the selection is.
    const folder = before.find((r) => r.name === "alpha")!.cwd;
    assert.equal(before.find((r) => r.name === "beta")!.cwd, folder);
    h.terminal.type("n");
    await h.waitForScreen("the profile picker", (s) => s.includes("New job from") && s.includes(" agent "));
    h.terminal.type(ENTER);
    typeText(h, "from the hub");
    await h.waitForScreen("the task line, with the folder it starts in", (s) =>
      s.includes(`New agent (folder ${folder.replace(homedir(), "~")}) · task › from the hub`),
    );
    h.terminal.type(ENTER);
    const screen = await h.waitForScreen("the new row", (s) => /agent +working +got: from the hub/.test(s));
    assert.match(screen, /Started agent \(\w+\) from agent\./);
    const rows = (await h.raw.request("list")).result.rows as { name: string; cwd: string }[];
    assert.equal(rows.find((r) => r.name === "agent")?.cwd, folder, "it starts in the selected row's folder");
    assert.match(screen, /3 sessions/);
  });

  test("remove asks first", async (t) => {
    const { h } = await openHub(t);
    const { alpha } = await twoAgents(h);
    await select(h, "alpha");
    h.terminal.type("D");
    await h.waitForScreen("the question", (s) => s.includes("Remove alpha?"));
    h.terminal.type("n");
    await h.waitForScreen("kept", (s) => !s.includes("Remove alpha?"));
    assert.match(await h.terminal.text(), /alpha/);
    h.terminal.type("D");
    await h.waitForScreen("the question again", (s) => s.includes("Remove alpha?"));
    h.terminal.type("y");
    await h.waitForScreen("alpha gone", (s) => s.includes("Removed alpha.") && !/alpha +working/.test(s));
    const rows = (await h.raw.request("list")).result.rows as { id: string }[];
    assert.equal(
      rows.find((r) => r.id === alpha),
      undefined,
    );
  });

  test("attach hands the terminal over and takes it back on detach", async (t) => {
    const hub = await openHub(t);
    const { h } = hub;
    const { beta } = await twoAgents(h);
    await select(h, "beta");
    h.terminal.type("a");
    await h.waitForScreen("the session's screen", (s) => s.startsWith("the session's own screen"));
    assert.deepEqual(hub.attached, [{ id: beta, drawnWhileHubStopped: true }]);
    h.terminal.type("x"); // Keys while attached are not the hub's: nothing is stopped.
    hub.detach();
    const screen = await h.waitForScreen("the hub again", (s) => s.includes("Back from beta."));
    assert.doesNotMatch(screen, /session's own screen/);
    assert.match(screen, /beta +working/);
  });

  test("the help lists the keys, scrolls with PgDn, and any other key closes it", async (t) => {
    const { h } = await openHub(t);
    await twoAgents(h);
    h.terminal.type("?");
    let screen = await h.waitForScreen("the help", (s) => s.includes("roost hub · keys"));
    // Page by page to its end: each page is read on the way.
    while (!screen.includes("spawned by the row above")) {
      const before = screen;
      h.terminal.type("\x1b[6~");
      screen += await h.waitForScreen(
        "the next page",
        (s) => !before.endsWith(s) && s.includes("roost hub · keys"),
      );
    }
    for (const words of [
      "next row waiting for you",
      "attach to its terminal",
      "stop the session",
      "filter rows by text",
      "pinned",
    ])
      assert.ok(screen.includes(words), `the help says "${words}"`);
    h.terminal.type("z");
    await h.waitForScreen(
      "the list again",
      (s) => !s.includes("roost hub · keys") && s.includes("Enter reply"),
    );
  });

  test("the events, board, schedules and orders panes show when the daemon has their ops, else stay hidden", async (t) => {
    const { h } = await openHub(t);
    await twoAgents(h);
    const board = await h.raw.request("task", { action: "add", title: "write the docs" });
    const feed = await h.raw.request("events", { limit: 5 });
    if (!board.ok || !feed.ok) {
      // A daemon without them: the pane key says so and nothing is drawn.
      h.terminal.type("v");
      const screen = await h.waitForScreen("the refusal", (s) =>
        s.includes("has no events, board or schedules"),
      );
      assert.doesNotMatch(screen, /── events|── board/);
      return;
    }
    await h.waitForScreen("the board's counts in the title", (s) => /board 1 open 0 claimed 0 done/.test(s));
    h.terminal.type("v");
    await h.waitForScreen(
      "the events pane",
      (s) => /── events ─/.test(s) && /user task add #1 write the docs/.test(s),
    );
    h.terminal.type("v");
    await h.waitForScreen(
      "the board pane",
      (s) => /── board · 1 open/.test(s) && /#1 open +write the docs/.test(s),
    );
    h.terminal.type("v");
    await h.waitForScreen(
      "the schedules pane",
      (s) => /── schedules ─/.test(s) && s.includes("no schedules"),
    );
    h.terminal.type("v");
    await h.waitForScreen(
      "the concierge's orders pane",
      (s) => /── orders ─/.test(s) && s.includes("no standing orders") && s.includes("◇ concierge off"),
    );
    h.terminal.type("v");
    await h.waitForScreen("no pane", (s) => !s.includes("── "));
  });

  test("says the daemon is gone, and reconnects when it is back", async (t) => {
    const { h } = await openHub(t);
    const { beta } = await twoAgents(h);
    await h.daemon.kill("SIGKILL");
    await h.waitForScreen(
      "the banner",
      (s) => s.includes("The daemon is gone: start it with roost daemon") && s.includes("✗ daemon gone"),
    );
    assert.match(await h.terminal.text(), /beta/, "the rows stay as last seen");
    // A reply typed meanwhile waits, and goes when the daemon is back, once.
    await select(h, "beta");
    h.terminal.type(ENTER);
    typeText(h, "while it was away");
    h.terminal.type(ENTER);
    await h.waitForScreen("the reply held", (s) => s.includes("sending again when it is back"));
    await h.daemon.start();
    await h.waitForScreen("the reply saved", (s) => /Reply #\d+ saved for beta/.test(s));
    await h.waitForScreen("beta's report of it", (s) => s.includes("got: while it was away"));
    assert.equal(count(h.received(beta), "while it was away"), 1);
    const screen = await h.waitForScreen(
      "reconnected",
      (s) => s.includes("● daemon") && !s.includes("daemon is gone"),
    );
    assert.match(screen, /beta/);
    // Live again: a change after the restart shows.
    h.raw.close();
    h.raw = await h.daemon.connect();
    await h.raw.request("reply", { id: beta, text: "say:back again" });
    await h.waitForScreen("a report after the restart", (s) => s.includes("back again"));
  });

  test("what the status line says of a row that asked nothing goes once the row asks", async (t) => {
    const config = {
      agentProfiles: { ...HUB_TEST_CONFIG.agentProfiles, asksLater: TERMINAL_PROFILES.asksLater },
    };
    const h = await startHubHarness(120, 30, { config });
    t.after(() => h.close());
    const { id } = (await h.raw.request("dispatch", { profile: "asksLater", name: "deploy" })).result;
    await h.waitForScreen("deploy working", (s) => s.includes("working on the deploy"));
    h.terminal.type(ENTER);
    typeText(h, "y");
    h.terminal.type(ENTER);
    await h.waitForScreen(
      "the reply held",
      (s) =>
        s.includes("deploy asks nothing now") &&
        s.includes('⏸ held "y" (not typed: it asked nothing when it came)'),
    );
    writeFileSync(join(h.daemon.stateDir, "jobs", id, "go"), "");
    const asks = await h.waitForScreen("deploy asking", (s) => s.includes("Proceed? [y/N]"));
    assert.doesNotMatch(asks, /asks nothing now/, "the notice went with the change");
    assert.match(asks, /⏸ held "y" \(it asks now: Enter sends it as the answer, or edit it\)/);
  });
});

test("a full events feed (200 kept) still redraws for each new event", async (t) => {
  const daemon = await startTestDaemon({ config: HUB_TEST_CONFIG });
  const raw = await daemon.connect();
  const state = initialHubState();
  // Only the feed's poll asks for a redraw here (pushed events are not passed on), as in a hub
  // where nothing else changes.
  let redraws = 0;
  const connection = new HubConnection(
    { home: daemon.home },
    {
      status() {},
      rows() {},
      row() {},
      rowRemoved() {},
      event() {},
      connected: () => void feeds.connected(),
    },
  );
  const feeds = new HubFeeds(state, connection, () => redraws++, 50);
  t.after(async () => {
    feeds.stop();
    connection.close();
    raw.close();
    await daemon.stop();
  });
  await connection.start();
  await waitFor("the feed read", () => state.events !== null || undefined);
  // The feed fills as the tasks' events come; only then does the oldest go for each new one.
  const add = async (n: number) => {
    assert.equal((await raw.request("task", { action: "add", title: `task ${n}` })).ok, true);
    await waitFor(
      `task ${n} in the feed`,
      () => state.events?.at(-1)?.text.endsWith(`task ${n}`) || undefined,
    );
  };
  for (let n = 1; state.events!.length < 200; n++) await add(n);
  const before = redraws;
  await add(1000);
  assert.equal(state.events!.length, 200);
  await waitFor("a redraw for it", () => redraws > before || undefined, 5000);
});
