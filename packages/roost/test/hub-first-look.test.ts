// What a new user meets in the hub, at 60x15, 80x24 and 140x40: why a job failed and its details,
// rows of the same name, the hint line, a broken roost.json, a task added from the hub.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { waitFor } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG, type HubHarness, startHubHarness } from "./helpers/hub-harness.js";

const ENTER = "\r";
const ESC = "\x1b";
const PAGE_DOWN = "\x1b[6~";
const SIZES = [
  [60, 15],
  [80, 24],
  [140, 40],
] as const;

const CONFIG = {
  agentProfiles: {
    ...HUB_TEST_CONFIG.agentProfiles,
    asker: {
      command: ["/bin/sh", "-c", "printf 'Proceed? [y/N] '; read answer; echo \"got $answer\"; sleep 60"],
    },
    crasher: {
      command: [
        "/bin/sh",
        "-c",
        "echo starting up; echo 'execvp(3) failed: No such file or directory'; sleep 0.1; exit 1",
      ],
    },
  },
};

test("with no session yet, the list and the hints at 80x24 say n starts one; n offers the profiles", async () => {
  const h = await startHubHarness(80, 24);
  try {
    const screen = await h.waitForScreen(
      "the empty list",
      (s) => s.includes("No sessions yet") && s.includes("● daemon"),
    );
    assert.match(screen, /No sessions yet\. Press n to dispatch one from a profile/);
    const lines = screen.split("\n");
    assert.equal(lines.length, 24);
    assert.match(lines[23]!, /^ n new session from a profile · \? help · q quit *$/);
    for (const line of lines) assert.ok(visibleWidth(line) <= 80, `a line fits in 80: ${line}`);
    h.terminal.type("n");
    await h.waitForScreen("the profiles to pick from", (s) =>
      /New job from .*agent.* · ←\/→ · Enter: task/.test(s),
    );
  } finally {
    await h.close();
  }
});

describe("the hub in a new user's first minutes", () => {
  let h: HubHarness;

  before(async () => {
    h = await startHubHarness(140, 40, { config: CONFIG });
  });
  after(async () => {
    await h?.close();
  });

  const typeText = (text: string) => h.terminal.type(...[...text]);
  const fits = async (columns: number) => {
    for (const line of await h.terminal.screen())
      assert.ok(visibleWidth(line) <= columns, `a line fits in ${columns}: ${line}`);
  };
  const selectById = async (id: string) => {
    h.terminal.type("\x1b[H");
    for (let i = 0; i < 20 && h.hub.state.selectedId !== id; i++) h.terminal.type("j");
    assert.equal(h.hub.state.selectedId, id);
  };

  /** A job that crashed until it failed, and the screen that showed it: made by the first test that asks. */
  let failed: Promise<{ crasher: string; screen: string }> | null = null;
  const failedJob = () =>
    (failed ??= (async () => {
      const crasher = (await h.raw.request("dispatch", { profile: "crasher" })).result.id as string;
      const screen = await h.waitForScreen("the failed row", (s) => /✗ crasher +failed/.test(s));
      return { crasher, screen };
    })());

  test("a failed job's row says why and what it printed last", async () => {
    const { screen } = await failedJob();
    assert.match(
      screen,
      /✗ crasher +failed +execvp\(3\) failed: No such file or directory · crashed 3 times in a row/,
    );
  });

  test("i shows its details: command, lifecycle, last output lines and its events, at every size", async () => {
    const { crasher } = await failedJob();
    await selectById(crasher);
    h.terminal.type("i");
    let screen = await h.waitForScreen("the details", (s) => s.includes("── last output"));
    assert.match(screen, /crasher · details/);
    assert.match(screen, new RegExp(`id +${crasher}`));
    assert.match(screen, /command +\/bin\/sh -c echo starting up/);
    assert.match(screen, /state +✗ failed · exit code 1/);
    assert.match(screen, /lifecycle +created \d\d:\d\d:\d\d · changed .* restarts 2/);
    assert.match(screen, /replies +none waiting/);
    assert.match(screen, /\n│ execvp\(3\) failed: No such file or directory/);
    assert.match(screen, /job end +crasher: failed: crashed 3 times/);
    await fits(140);
    for (const [columns, rows] of SIZES) {
      h.terminal.resize(columns, rows);
      screen = await h.waitForScreen(
        `the details at ${columns}x${rows}`,
        (s) => s.split("\n").length === rows && s.includes("crasher · details"),
      );
      await fits(columns);
      // Scrolled to its end with PgDn, it shows the events; the view stays open.
      let seen = screen;
      for (let i = 0; i < 10 && !seen.includes("job end"); i++) {
        h.terminal.type(PAGE_DOWN);
        await new Promise((r) => setTimeout(r, 50));
        seen += await h.terminal.text();
      }
      assert.match(seen, /job end/, `the events reached at ${columns}x${rows}`);
      assert.equal(h.hub.state.mode.kind, "detail");
    }
    h.terminal.type(ESC);
    await h.waitForScreen("the list again", (s) => s.includes("✗ crasher") && !s.includes("· details"));
  });

  test("the hint line keeps ? help and q quit at every size", async () => {
    // With a session in the list: an empty one hints at n only.
    await failedJob();
    for (const [columns, rows] of SIZES) {
      h.terminal.resize(columns, rows);
      const lastLine = (s: string) => s.split("\n")[rows - 1] ?? "";
      const screen = await h.waitForScreen(
        `the hints at ${columns}x${rows}`,
        (s) => s.split("\n").length === rows && /^ Enter reply · .* · \? help · q quit *$/.test(lastLine(s)),
      );
      assert.ok(visibleWidth(lastLine(screen)) <= columns);
      await fits(columns);
    }
  });

  test("two rows of one name show their ids; a rename to a name in use says so", async () => {
    h.terminal.resize(80, 24);
    const one = (await h.raw.request("dispatch", { profile: "agent", name: "planner" })).result.id;
    const two = (await h.raw.request("dispatch", { profile: "agent", name: "planner" })).result.id;
    const screen = await h.waitForScreen(
      "both planners",
      (s) => s.includes(`planner #${one.slice(0, 4)}`) && s.includes(`planner #${two.slice(0, 4)}`),
    );
    assert.equal(screen.match(/planner #/g)?.length, 2);
    const three = (await h.raw.request("dispatch", { profile: "agent", name: "writer" })).result.id;
    await h.waitForScreen("the writer", (s) => /writer +working/.test(s));
    await selectById(three);
    h.terminal.type("R", "\x15");
    typeText("planner");
    h.terminal.type(ENTER);
    await h.waitForScreen("the warning", (s) =>
      s.includes(`Renamed writer to planner; #${one}, #${two} have that name too`),
    );
    await h.waitForScreen("three planners with ids", (s) => s.match(/planner #/g)?.length === 3);
    // The CLI says so too.
    const cli = await h.daemon.cli(["rename", three, "planner"]);
    assert.match(
      cli.stdout,
      new RegExp(`renamed ${three} to planner \\(${one}, ${two} have that name too: use ids\\)`),
    );
  });

  test("the details follow the job as it changes", async () => {
    const id = (await h.raw.request("dispatch", { profile: "agent", name: "follower" })).result.id;
    await h.waitForScreen("the follower", (s) => /follower +working/.test(s));
    await selectById(id);
    h.terminal.type("i");
    await h.waitForScreen("its details", (s) => s.includes("follower · details") && /says +ready/.test(s));
    await h.raw.request("reply", { id, text: "say:on the second step" });
    const screen = await h.waitForScreen("the new summary in the details", (s) =>
      /says +on the second step/.test(s),
    );
    assert.match(screen, /reply +follower: say:on the second step/, "and the reply among its events");
    h.terminal.type(ESC);
    await waitFor("the list again", async () => (h.hub.state.mode.kind === "list" ? true : undefined));
  });

  test("T adds a task to the board from the hub", async () => {
    h.terminal.type("T");
    await h.waitForScreen("the task line", (s) => s.includes("New task ›"));
    typeText("write the docs");
    h.terminal.type(ENTER);
    await h.waitForScreen("the outcome", (s) => s.includes('Added the task "write the docs" to the board.'));
    const tasks = (await h.raw.request("task", { action: "list" })).result.tasks as { title: string }[];
    assert.deepEqual(
      tasks.map((t) => t.title),
      ["write the docs"],
    );
  });

  test("a broken roost.json shows its whole error when a new job is asked for", async () => {
    writeFileSync(join(h.daemon.home, "roost.json"), '{ "agentProfiles": { "mine": { "command": 42 } } }');
    for (const [columns, rows] of SIZES) {
      h.terminal.resize(columns, rows);
      h.terminal.type("n");
      const screen = await h.waitForScreen(`the error at ${columns}x${rows}`, (s) =>
        s.includes("roost.json cannot be read"),
      );
      // The reason, wrapped in the box, whole: the key it is about and what it must be.
      const text = screen.replace(/[│\s]+/g, " ");
      assert.match(text, /agentProfiles\.mine\.command must be/);
      assert.doesNotMatch(screen, /No profiles in roost\.json/);
      await fits(columns);
      h.terminal.type(ESC);
      await waitFor("the list again", async () => (h.hub.state.mode.kind === "list" ? true : undefined));
    }
    writeFileSync(join(h.daemon.home, "roost.json"), JSON.stringify(CONFIG));
  });

  test("the events feed shows a terminal agent's prompt and typed reply, pins and renames", async () => {
    h.terminal.resize(80, 24);
    const asker = (await h.raw.request("dispatch", { profile: "asker" })).result.id;
    await h.waitForScreen("the prompt", (s) => /\? asker +waiting/.test(s));
    await selectById(asker);
    // A digit picks only a choice the screen shows: the selected row's choices are drawn first.
    await h.waitForScreen("the asker selected, its choices shown", (s) =>
      /› \? asker[^\n]*\n[^\n]*1 y +2 n/.test(s),
    );
    h.terminal.type("1");
    await h.waitForScreen("the answer typed", (s) => /asker +\w+ +got y/.test(s));
    h.terminal.type("p");
    await h.waitForScreen("pinned", (s) => /asker .*⚑/.test(s));
    // A pin is not news: the age goes on from the answer, it does not start again.
    await new Promise((r) => setTimeout(r, 1100));
    h.hub.requestRender();
    await h.waitForScreen("the age past a second", (s) => /asker .*⚑ +[1-9]\d*s/.test(s));
    h.terminal.type("R", "\x15");
    typeText("deployer");
    h.terminal.type(ENTER);
    const feed = (await h.raw.request("events", { id: asker })).result.events as {
      kind: string;
      why: string;
      text: string;
    }[];
    const lines = feed.map((e) => `${e.kind} ${e.why} ${e.text}`);
    await waitFor("the rename in the feed", async () => {
      const events = (await h.raw.request("events", { id: asker })).result.events as {
        kind: string;
        why: string;
        text: string;
      }[];
      return events.some((e) => e.why === "rename") ? true : undefined;
    });
    assert.ok(lines.includes("job state asker: asks: Proceed? [y/N]"), lines.join("\n"));
    assert.ok(lines.includes("reply typed asker: y"), lines.join("\n"));
    assert.ok(lines.includes("job pin asker: pinned"), lines.join("\n"));
    h.terminal.type("v");
    const screen = await h.waitForScreen(
      "the events pane",
      (s) => s.includes("── events") && s.includes("renamed to deployer"),
    );
    assert.match(screen, /user reply typed asker: y/);
    assert.doesNotMatch(screen, /reply reply|followUp/);
    h.terminal.type("v", "v", "v");
  });

  test("S runs a schedule now and pauses it, from the hub", async () => {
    h.terminal.resize(80, 24);
    const added = await h.raw.request("schedule-add", {
      when: "every 30m",
      name: "nightly",
      launch: { profile: "agent", task: "scheduled work" },
    });
    assert.equal(added.ok, true, JSON.stringify(added));
    await waitFor(
      "the hub's schedules",
      async () => (h.hub.state.schedules?.length ? true : undefined),
      5000,
    ).catch(() => h.terminal.type("v"));
    h.terminal.type("S");
    await h.waitForScreen("the schedule picker", (s) => /Schedule +nightly +r: run now · p: pause/.test(s));
    h.terminal.type("r");
    await h.waitForScreen("the run", (s) => /Started nightly \(\w+\) from schedule nightly\./.test(s));
    await h.waitForScreen("its job", (s) => /nightly +working/.test(s));
    h.terminal.type("S", "p");
    await h.waitForScreen("paused", (s) => s.includes("Paused schedule nightly."));
    const listed = (await h.raw.request("schedules")).result.schedules as { paused: boolean; runs: number }[];
    assert.deepEqual(
      listed.map((l) => [l.paused, l.runs]),
      [[true, 1]],
    );
  });
});
