import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { formatAge } from "../src/hub/age.js";
import { type HubActions, handleKey } from "../src/hub/hub-input.js";
import { type HubState, initialHubState, removeRow } from "../src/hub/hub-state.js";
import { overlayScrollMost, renderHub } from "../src/hub/hub-view.js";
import { LIST_KEYS } from "../src/hub/key-map.js";
import { editLine, emptyEditor } from "../src/hub/line-editor.js";
import type { JobRow } from "../src/protocol/rows.js";
import type { WorktreeRow } from "../src/protocol/worktrees.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

const row = jobRow;

/** A worktree row on `roost/fix`, one commit ahead with one file changed, mergeable, as `extra` changes it. */
const worktreeRow = (extra: Partial<WorktreeRow> = {}): WorktreeRow => ({
  branch: "roost/fix",
  base: "HEAD",
  into: "main",
  path: "/tmp/wt",
  ahead: 1,
  behind: 0,
  files: 1,
  added: 1,
  removed: 1,
  uncommitted: 0,
  mergeable: true,
  conflicts: [],
  merged: false,
  missing: false,
  error: null,
  ...extra,
});

function stateWith(rows: JobRow[], change: Partial<HubState> = {}): HubState {
  const state = initialHubState();
  state.connection = "connected";
  state.rows = new Map(rows.map((r) => [r.id, r]));
  return Object.assign(state, change);
}

function view(state: HubState, width = 80, height = 24): string[] {
  const lines = renderHub(state, width, height, NOW);
  assert.equal(lines.length, height, "exactly one line per terminal row");
  for (const line of lines) assert.ok(visibleWidth(line) <= width, `fits in ${width}: ${plain(line)}`);
  return lines.map(plain);
}

const waiting = (id: string, extra: Partial<JobRow> = {}) =>
  row(id, {
    state: "blocked",
    status: "waiting",
    waitingFor: "question",
    question: "Proceed?",
    choices: ["yes", "no"],
    ...extra,
  });

function recorder() {
  const calls: string[] = [];
  const actions: HubActions = {
    reply: (id, text, steer) => calls.push(`reply ${id} ${text} ${steer ? "steer" : "after"}`),
    pick: (id, choice, question) => calls.push(`pick ${id} ${choice} (${question})`),
    stop: (id) => calls.push(`stop ${id}`),
    respawn: (id) => calls.push(`respawn ${id}`),
    remove: (id) => calls.push(`remove ${id}`),
    setPinned: (id, pinned) => calls.push(`pin ${id} ${pinned}`),
    rename: (id, name) => calls.push(`rename ${id} ${name}`),
    move: (id, direction) => calls.push(`move ${id} ${direction}`),
    loadProfiles: () => calls.push("profiles"),
    dispatch: (profile, task, name, cwd) => calls.push(`dispatch ${profile} ${task} ${name} ${cwd}`),
    addTask: (title) => calls.push(`task ${title}`),
    runSchedule: (id) => calls.push(`run schedule ${id}`),
    pauseSchedule: (id, paused) => calls.push(`pause schedule ${id} ${paused}`),
    concierge: (args) => calls.push(`concierge ${JSON.stringify(args)}`),
    askConcierge: (text) => calls.push(`ask ${text}`),
    addOrder: (when, text) => calls.push(`order ${when} ${text}`),
    dropOrder: (id) => calls.push(`drop order ${id}`),
    attach: (id) => calls.push(`attach ${id}`),
    describe: (id) => calls.push(`describe ${id}`),
    transcript: (id) => calls.push(`transcript ${id}`),
    diff: (id) => calls.push(`diff ${id}`),
    planMerge: (id) => calls.push(`plan merge ${id}`),
    merge: (id) => calls.push(`merge ${id}`),
    redraw: () => calls.push("redraw"),
    quit: () => calls.push("quit"),
  };
  return { calls, actions };
}

describe("the hub's view", () => {
  test("one line per row: glyph, name, state, summary, pending replies, age", () => {
    const lines = view(stateWith([row("alpha", { pending: 2, connected: false })]));
    const line = lines.find((l) => l.includes("alpha"))!;
    assert.match(line, /^› ● alpha +working +summary of alpha +✉2 +5s$/);
    assert.match(lines[0]!, /roost hub · 1 session · by folder +● daemon/);
    assert.match(lines[23]!, /Enter reply/);
  });

  test("a waiting row shows its question and numbered choices, and the title counts it", () => {
    const lines = view(stateWith([row("a"), waiting("b", { order: 1 })]));
    const at = lines.findIndex((l) => l.includes("? b"));
    assert.match(lines[at]!, /\? b +waiting/);
    assert.match(lines[at + 1]!, /\? Proceed\? {2}1 yes {2}2 no/);
    assert.match(lines[0]!, /1 waiting/);
  });

  test("a stopped row that had asked is not waiting", () => {
    const lines = view(stateWith([waiting("b", { lifecycle: "stopped" })]));
    const line = lines.find((l) => l.includes(" b "))!;
    assert.match(line, /■ b +stopped/);
    assert.doesNotMatch(lines.join("\n"), /Proceed\?|1 waiting/);
  });

  test("a row roost stopped says why first, its last line after", () => {
    const stopped = row("b", { lifecycle: "stopped", error: "stopped: over its budget" });
    assert.match(
      view(stateWith([stopped]), 100).join("\n"),
      /■ b +stopped +stopped: over its budget · last: summary of b/,
    );
  });

  test("each state has its glyph and word", () => {
    const rows = [
      row("w"),
      row("i", { status: "idle", order: 1 }),
      row("d", { state: "done", lifecycle: "done", order: 2 }),
      row("f", { state: "failed", lifecycle: "failed", error: "it broke", order: 3 }),
      row("s", { lifecycle: "starting", order: 4 }),
    ];
    const text = view(stateWith(rows), 100).join("\n");
    assert.match(text, /● w +working/);
    assert.match(text, /◦ i +idle/);
    assert.match(text, /✓ d +done/);
    assert.match(text, /✗ f +failed +it broke · last: summary of f/);
    const crashed = row("c", {
      state: "failed",
      lifecycle: "failed",
      error: "crashed 3 times in a row",
      summary: "boom",
    });
    assert.match(view(stateWith([crashed])).join("\n"), /✗ c +failed +boom · crashed 3 times in a row/);
    assert.match(text, /○ s +starting/);
  });

  test("pinned rows first, then the user's order", () => {
    const rows = [row("c", { order: 0 }), row("a", { order: 2 }), row("b", { order: 1, pinned: true })];
    const names = view(stateWith(rows))
      .filter((l) => /^[› ] ●/.test(l))
      .map((l) => l.split(/\s+/)[2]);
    assert.deepEqual(names, ["b", "c", "a"]);
  });

  test("by folder, children sit under their parent with ↳; by state, the parent is named", () => {
    const rows = [
      row("parent", { order: 0 }),
      row("other", { order: 1 }),
      row("child", { order: 2, parent: "parent" }),
      row("elsewhere", { order: 3, cwd: "/srv/b" }),
    ];
    const byDir = view(stateWith(rows));
    const names = byDir.filter((l) => /^[› ] ●/.test(l)).map((l) => l.trim());
    assert.match(names[0]!, /parent/);
    assert.match(names[1]!, /● ↳ child/);
    assert.match(names[2]!, /other/);
    assert.ok(byDir.some((l) => l.startsWith("▾ /srv/a (3)")));
    assert.ok(byDir.some((l) => l.startsWith("▾ /srv/b (1)")));
    const byState = view(stateWith(rows, { grouping: "state" })).join("\n");
    assert.match(byState, /▾ working \(4\)/);
    assert.match(byState, /child +working +↳ parent · summary of child/);
  });

  test("a parent named by parentSession nests its child too", () => {
    const rows = [row("p"), row("q", { order: 1 }), { ...row("c", { order: 2 }), parentSession: "p" }];
    const names = view(stateWith(rows))
      .filter((l) => /^[› ] ●/.test(l))
      .map((l) => l.trim());
    assert.match(names[1]!, /● ↳ c/);
  });

  test("rows without a parent field are all top level", () => {
    const lines = view(stateWith([row("a"), row("b", { order: 1 })]));
    assert.ok(!lines.join("\n").includes("↳"));
  });

  test("the filter keeps matching rows only and says so", () => {
    const lines = view(stateWith([row("alpha"), row("beta", { order: 1 })], { filter: "bet" })).join("\n");
    assert.match(lines, /filter "bet" \(1\)/);
    assert.match(lines, /beta/);
    assert.doesNotMatch(lines, /alpha/);
    const none = view(stateWith([row("alpha")], { filter: "zzz" })).join("\n");
    assert.match(none, /No rows match "zzz"/);
  });

  test("the reply line opens in place under the selected row", () => {
    const state = stateWith([row("a"), row("b", { order: 1 })], {
      selectedId: "a",
      mode: { kind: "reply", id: "a", steer: true, editor: emptyEditor("go on"), start: false },
    });
    const lines = view(state);
    const at = lines.findIndex((l) => l.includes("● a "));
    assert.match(lines[at + 1]!, /⤷ steer › go on/);
    assert.match(lines[23]!, /C-t steer\/after/);
  });

  test("a lost daemon is said on a banner; the rows stay", () => {
    const state = stateWith([row("a")], { connection: "gone", connectionDetail: "no answer on its socket" });
    const lines = view(state);
    assert.match(lines[0]!, /✗ daemon gone/);
    // How to bring it back comes first: it shows at 80 columns, and at 60.
    assert.match(lines[1]!, /The daemon is gone: start it with roost daemon \(or any roost command\)/);
    assert.match(
      view(state, 170)[1]!,
      /reconnects by itself\. Rows are as last seen\. \(no answer on its socket\)/,
    );
    assert.match(view(state, 60, 15)[1]!, /The daemon is gone: start it with roost daemon/);
    assert.ok(lines.some((l) => l.includes("● a ")));
  });

  test("a long list pages to keep the selection on screen; only visible rows are drawn", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(`r${i}`, { order: i }));
    const lines = view(stateWith(rows, { selectedId: "r500" }));
    assert.ok(lines.some((l) => l.startsWith("› ● r500 ")));
    assert.equal(
      lines.filter((l) => /^[› ] ● r\d+ /.test(l)).length,
      21,
      "a screen of rows: 24 less 3 lines",
    );
  });

  test("the panes show only when the daemon has their op", () => {
    const none = view(stateWith([row("a")], { pane: "events" })).join("\n");
    assert.doesNotMatch(none, /── events/);
    const empty = { counts: { open: 0, claimed: 0, blocked: 0, done: 0 }, tasks: [] };
    assert.doesNotMatch(
      view(stateWith([row("a")], { board: empty }))[0]!,
      /board/,
      "an empty board keeps out of the title",
    );
    const state = stateWith([row("a")], {
      pane: "events",
      events: [{ at: new Date(NOW).toISOString(), who: "a", kind: "reply", text: "hello" }],
      board: { counts: { open: 2, claimed: 1, blocked: 0, done: 3 }, tasks: [] },
    });
    const text = view(state, 100).join("\n");
    assert.match(text, /── events ─+\n/);
    assert.match(text, /a reply hello/);
    assert.match(text, /board 2 open 1 claimed 3 done/);
  });

  test("the help lists every key and the row symbols, scrolling at 80x24 and 60x15", () => {
    for (const [width, height] of [
      [80, 24],
      [60, 15],
      [140, 40],
    ] as const) {
      const state = stateWith([row("a")], { mode: { kind: "help", scroll: 0 } });
      const { actions } = recorder();
      const seen: string[] = [];
      const most = overlayScrollMost(state, width, height, NOW);
      for (let i = 0; i < 20; i++) {
        seen.push(...view(state, width, height));
        handleKey(state, "\x1b[6~", actions, 5, most); // PgDn scrolls; it does not close the help.
        assert.equal(state.mode.kind, "help");
      }
      const text = seen.join("\n");
      for (const binding of LIST_KEYS)
        assert.ok(text.includes(binding.label), `the help shows ${binding.label} at ${width}x${height}`);
      for (const symbol of ["✉N", "⚑", "◦", "↳"])
        assert.ok(text.includes(symbol), `the legend shows ${symbol} at ${width}x${height}`);
      if (most > 0) assert.match(text, /lines \d+-\d+ of \d+/);
      handleKey(state, "x", actions, 5, most);
      assert.equal(state.mode.kind, "list", "another key closes it");
    }
  });

  test("narrower than 80 columns every line is still cut to fit", () => {
    const rows = [row("a-very-long-session-name", { pending: 12, pinned: true }), waiting("b", { order: 1 })];
    for (const [width, height] of [
      [40, 10],
      [20, 5],
      [12, 3],
    ] as const) {
      const lines = view(stateWith(rows, { mode: { kind: "help", scroll: 0 } }), width, height);
      assert.equal(lines.length, height);
      view(stateWith(rows), width, height);
    }
  });

  test("ages read short", () => {
    assert.deepEqual([0, 42_000, 17 * 60_000, 5 * 3600_000, 3 * 86_400_000].map(formatAge), [
      "now",
      "42s",
      "17m",
      "5h",
      "3d",
    ]);
  });

  test("text from agents cannot break the line", () => {
    const lines = view(stateWith([row("a", { summary: "evil\x1b[2J\nnext line" })]));
    // The escape sequence goes whole (terminalSafe), the line break is a space.
    assert.ok(
      lines.some((l) => l.includes("evil next line")),
      lines.join("\n"),
    );
  });
});

describe("the hub's keys", () => {
  // As the hub does, the screen is drawn before each key: a digit picks what it shows.
  const press = (state: HubState, actions: HubActions, ...keys: string[]) => {
    for (const key of keys) {
      renderHub(state, 80, 24, NOW);
      handleKey(state, key, actions, 10);
    }
  };

  test("Tab jumps between waiting rows, wrapping; a digit picks a choice", () => {
    const state = stateWith([
      row("a"),
      waiting("b", { order: 1 }),
      row("c", { order: 2 }),
      waiting("d", { order: 3 }),
    ]);
    const { calls, actions } = recorder();
    press(state, actions, "\t");
    assert.equal(state.selectedId, "b");
    press(state, actions, "\t");
    assert.equal(state.selectedId, "d");
    press(state, actions, "\t");
    assert.equal(state.selectedId, "b");
    press(state, actions, "2", "5");
    assert.deepEqual(calls, ["pick b no (Proceed?)"]);
    assert.match(state.notice?.text ?? "", /offers no choice 5/);
  });

  test("reply and steer lines, with C-t switching, Esc cancelling", () => {
    const state = stateWith([row("a")]);
    const { calls, actions } = recorder();
    press(state, actions, "\r", "h", "i", "\x14", "\r");
    press(state, actions, "s", "x", "\x1b");
    press(state, actions, "r", "\r");
    assert.deepEqual(calls, ["reply a hi steer"]);
    assert.equal(state.mode.kind, "list");
  });

  test("d shows a worktree's diff, made safe; m merges only what its dry run showed, after y", () => {
    const worktree = worktreeRow({ branch: "roost/a", base: "main", path: "/tmp/wt/a" });
    const state = stateWith([row("a", { worktree }), row("b", { order: 1 })]);
    const { calls, actions } = recorder();
    // Read afresh after each key (the compiler would keep it as the first assert left it).
    const mode = (): HubState["mode"] => state.mode;
    press(state, actions, "d");
    assert.deepEqual(state.mode, { kind: "diff", id: "a", scroll: 0 });
    assert.match(view(state).join("\n"), /a · diff[\s\S]*asking the daemon…/);
    const files = [{ path: "shared.txt", added: 1, removed: 1 }];
    state.diff = {
      id: "a",
      result: { worktree, files, patch: "@@ -1 +1 @@\n-base\n+alpha\x1b]0;pwned\x07\n", truncated: false },
      error: null,
    };
    const shown = view(state, 80, 24).join("\n");
    assert.match(shown, /roost\/a ↑1 ↓0 · 1 file \+1 −1 · mergeable/);
    assert.match(shown, /│ {2}shared\.txt {2}\+1 −1/);
    assert.match(shown, /│ \+alpha/);
    assert.doesNotMatch(view(state).join(""), /\x1b\]|\x07/, "a file's escapes are not drawn");
    // m from the diff: the confirmation asks the dry run first, and y does nothing until it is back.
    press(state, actions, "m", "y");
    assert.equal(mode().kind, "confirm-merge");
    assert.match(view(state).join("\n"), /Merge a\? Asking what it brings… Esc: back/);
    const asked = mode();
    assert.ok(asked.kind === "confirm-merge");
    asked.plan.result = {
      id: "a",
      branch: "roost/a",
      into: "main",
      strategy: "merge",
      dryRun: true,
      files,
      commit: null,
      committedAgentChanges: false,
    };
    assert.match(
      view(state).join("\n"),
      /Merge roost\/a into main\? +y: merge +n: keep · 1 file \+1 −1 \(merge\)/,
    );
    press(state, actions, "y");
    assert.equal(mode().kind, "list");
    // A refused dry run shows why, keys first, and y merges nothing.
    press(state, actions, "m");
    const refused = mode();
    assert.ok(refused.kind === "confirm-merge");
    refused.plan.error = "conflict: main changed shared.txt";
    assert.match(
      view(state).join("\n"),
      /Esc: back · merging a is refused: conflict: main changed shared\.txt/,
    );
    press(state, actions, "y", "\x1b");
    assert.equal(mode().kind, "list");
    // A row with no worktree says so.
    press(state, actions, "j", "d", "m");
    assert.equal(mode().kind, "list");
    assert.match(state.notice?.text ?? "", /b works in no worktree of roost's: nothing to diff or merge/);
    assert.deepEqual(calls, ["diff a", "plan merge a", "merge a", "plan merge a"]);
  });

  test("remove asks, and only y removes", () => {
    const state = stateWith([row("a")]);
    const { calls, actions } = recorder();
    press(state, actions, "D", "n", "D", "q", "\x1b", "D", "y");
    assert.deepEqual(calls, ["remove a"]);
  });

  test("stop, respawn, pin, move, rename, attach, group, quit", () => {
    const state = stateWith([row("a")]);
    const { calls, actions } = recorder();
    // A running job's stop and respawn ask first: n keeps it, y does it.
    press(state, actions, "x");
    assert.deepEqual(state.mode, { kind: "confirm", action: "stop", id: "a" });
    assert.match(
      view(state).join("\n"),
      /Stop a\? +y: stop +n: keep running · a reply will not start it again/,
    );
    press(state, actions, "n", "x", "y", "o", "y");
    press(state, actions, "p", "K", "J", "\x1b[1;2B", "a", "R", "\x15", "z", "\r", "g", "q");
    assert.deepEqual(calls, [
      "stop a",
      "respawn a",
      "pin a true",
      "move a -1",
      "move a 1",
      "move a 1",
      "attach a",
      "rename a z",
      "quit",
    ]);
    assert.equal(state.grouping, "state");
  });

  test("a terminal agent: no steer; its held reply shows under it and opens the reply editor to send", () => {
    const held = { text: "n", at: new Date(NOW - 1000).toISOString() };
    const state = stateWith([waiting("t", { kind: "terminal", held })]);
    const { calls, actions } = recorder();
    assert.ok(
      view(state).some((line) => line.includes('⏸ held "n" (it asks now: Enter sends it as the answer')),
    );
    press(state, actions, "s");
    assert.equal(state.mode.kind, "list");
    assert.match(state.notice!.text, /no steer/);
    press(state, actions, "\r", "\x14", "\r");
    assert.deepEqual(calls, ["reply t n after"]);
  });

  test("dispatch: choose the profile, type the task; it starts in the selected row's folder", () => {
    const state = stateWith([row("a", { cwd: "/srv/a" })], { profiles: ["one", "two"] });
    const { calls, actions } = recorder();
    press(state, actions, "n", "\x1b[C", "\r", "d", "o", "\r");
    assert.deepEqual(calls, ["profiles", "dispatch two do  /srv/a"]);
  });

  test("dispatch with no row to take a folder from asks which folder, and starts nothing until told", () => {
    const state = stateWith([], { profiles: ["one"] });
    const { calls, actions } = recorder();
    press(state, actions, "n", "\r", "d", "o", "\r");
    assert.deepEqual(calls, ["profiles"], "nothing dispatched in the hub's own folder");
    assert.equal(state.mode.kind, "dispatch-task");
    assert.match(view(state).join("\n"), /New one \(task do\) · which folder does it start in\? ›/);
    press(state, actions, "/", "w", "\r");
    assert.deepEqual(calls, ["profiles", "dispatch one do  /w"]);
  });

  test("dispatch: Tab goes to the new job's name and folder, and back to the task", () => {
    const state = stateWith([], { profiles: ["one"] });
    const { calls, actions } = recorder();
    press(state, actions, "n", "\r", "t", "\t", "m", "e", "\t", "\x15", "/", "s", "r", "c", "\t");
    const text = view(state).join("\n");
    assert.match(text, /New one \(name me · folder \/src\) · task › t/);
    assert.match(text, /Tab task \/ name \/ folder/);
    press(state, actions, "2", "\r");
    assert.deepEqual(calls, ["profiles", "dispatch one t2 me /src"]);
  });

  test("removing the selected row selects the one that takes its place", () => {
    const state = stateWith([row("a"), row("b", { order: 1 }), row("c", { order: 2 })], { selectedId: "b" });
    removeRow(state, "b");
    assert.equal(state.selectedId, "c");
    removeRow(state, "c");
    assert.equal(state.selectedId, "a");
    removeRow(state, "a");
    assert.equal(state.selectedId, null);
  });

  test("Home and End as tmux sends them, and as xterm does", () => {
    const state = stateWith([row("a"), row("b", { order: 1 }), row("c", { order: 2 })]);
    const { actions } = recorder();
    for (const [end, home] of [
      ["\x1b[4~", "\x1b[1~"],
      ["\x1b[F", "\x1b[H"],
    ]) {
      press(state, actions, end!);
      assert.equal(state.selectedId, "c");
      press(state, actions, home!);
      assert.equal(state.selectedId, "a");
    }
  });

  test("the filter applies as it is typed; Esc clears it", () => {
    const state = stateWith([row("alpha"), row("beta", { order: 1 })]);
    const { actions } = recorder();
    press(state, actions, "/", "b", "e");
    assert.equal(state.filter, "be");
    press(state, actions, "\r");
    assert.equal(state.filter, "be");
    assert.equal(state.mode.kind, "list");
    press(state, actions, "\x1b");
    assert.equal(state.filter, "");
  });

  test("the line editor: cursor moves, word and line deletion, paste on one line", () => {
    let editor = emptyEditor("hello world");
    editor = editLine(editor, "ctrl+w", "\x17")!;
    assert.deepEqual(editor, { text: "hello ", cursor: 6 });
    editor = editLine(editor, "home", "\x1b[H")!;
    editor = editLine(editor, undefined, "\x1b[200~a\nb\x1b[201~")!;
    assert.deepEqual(editor, { text: "a bhello ", cursor: 3 });
    editor = editLine(editor, "ctrl+k", "\x0b")!;
    assert.deepEqual(editor, { text: "a b", cursor: 3 });
    assert.equal(editLine(editor, "enter", "\r"), undefined);
  });

  test("grouped by state, a row acted on stays under the cursor until the selection moves", () => {
    const state = stateWith([waiting("a"), row("b", { order: 1 })], { grouping: "state", selectedId: "a" });
    const { calls, actions } = recorder();
    press(state, actions, "1");
    assert.deepEqual(calls, ["pick a yes (Proceed?)"]);
    // The answer made it work: by state it would move under "working", below b.
    state.rows.set("a", row("a"));
    let lines = view(state);
    assert.ok(
      lines.findIndex((l) => /› ● a/.test(l)) < lines.findIndex((l) => / ● b/.test(l)),
      "a kept its place",
    );
    assert.match(lines.join("\n"), /waiting for you \(1\)/);
    press(state, actions, "j");
    lines = view(state);
    assert.match(lines.join("\n"), /working \(2\)/, "once the selection moved, a is grouped where it is now");
  });

  test("a notice is over once a dialog opens: it does not come back after Esc", () => {
    const state = stateWith([row("a")], { notice: { text: "Reply #3 saved for a.", tone: "ok" } });
    const { actions } = recorder();
    assert.match(view(state).join("\n"), /Reply #3 saved/);
    press(state, actions, "/", "\x1b");
    assert.doesNotMatch(view(state).join("\n"), /Reply #3 saved/);
  });

  test("the envelope counts replies the agent has not been handed", () => {
    const rows = [
      row("handed", { pending: 2, connected: true }),
      row("away", { pending: 3, connected: false, order: 1 }),
      row("deaf", { pending: 4, connected: false, reported: true, capabilities: ["report"], order: 2 }),
    ];
    const text = view(stateWith(rows)).join("\n");
    assert.doesNotMatch(text, /✉2|✉4/);
    assert.match(text, /away .* ✉3 /);
  });

  test("the profile picker scrolls to the chosen profile at 60 columns", () => {
    const profiles = Array.from({ length: 12 }, (_, i) => `profile-${i + 1}`);
    const state = stateWith([], { profiles, mode: { kind: "dispatch-profile", choice: 0 } });
    const { actions } = recorder();
    for (let i = 0; i < 10; i++) press(state, actions, "\x1b[C");
    const status = view(state, 60, 15)[13]!;
    assert.match(status, /profile-11/);
    assert.match(status, /11\/12/);
    assert.match(status, /‹/, "more to the left");
  });

  test("S picks a schedule: r runs it now, p pauses or resumes it", () => {
    const schedules = [
      { id: "1", name: "nightly", when: "daily 02:00", next: null, paused: false },
      { id: "2", name: "hourly", when: "every 1h", next: null, paused: true },
    ];
    const state = stateWith([row("a")], { schedules });
    const { calls, actions } = recorder();
    press(state, actions, "S");
    let text = view(state).join("\n");
    assert.match(text, /── schedules/, "the pane shows them");
    assert.match(text, /Schedule +nightly +hourly \(paused\) +r: run now · p: pause/);
    press(state, actions, "r", "S", "\x1b[C", "p");
    assert.deepEqual(calls, ["run schedule 1", "pause schedule 2 false"]);
    assert.equal(state.mode.kind, "list");
    state.schedules = [];
    press(state, actions, "S");
    text = view(state).join("\n");
    assert.match(text, /No schedules: roost schedule add/);
  });

  test("the concierge: its line (a need on red), a suggestion sent with y, ask, its menu, orders", () => {
    const status = {
      running: true,
      failed: null,
      unavailable: null,
      job: { id: "c1", name: "concierge", lifecycle: "running", connected: true },
      policy: { answer: "never" as const, act: false },
      answered: 0,
      orders: 1,
      undoable: null,
    };
    const order = {
      id: 3,
      text: "check the build",
      when: "every 30m",
      by: "user" as const,
      at: "",
      lastAt: null,
      nextAt: "2026-01-01T12:30:00Z",
      count: 2,
    };
    const suggested = { text: "yes", why: "tests pass", at: "" };
    const state = stateWith([waiting("w", { suggested }), row("a"), waiting("cc", { role: "concierge" })], {
      concierge: { status, said: { kind: "need", text: "w needs you", at: "" }, orders: [order] },
    });
    const { calls, actions } = recorder();
    let lines = view(state);
    assert.match(lines[0]!, /1 waiting/, "the concierge waits for digests, not for the person");
    assert.match(lines.find((l) => l.includes("cc"))!, /◦ cc +idle/);
    const line = lines[21]!;
    assert.match(line, /^ ◆ concierge needs you: w needs you \(now\) · answers never · acts off · 1 order/);
    const raw = renderHub(state, 80, 24, NOW)[21]!;
    assert.ok(raw.startsWith("\x1b[41;97m"), "a need stands out");
    assert.match(lines.join("\n"), /✦ concierge suggests "yes" \(tests pass\) · y sends it/);

    press(state, actions, "y");
    press(state, actions, "j", "y");
    assert.deepEqual(calls.splice(0), ["reply w yes after"]);
    assert.match(state.notice!.text, /suggests nothing for a/);

    press(state, actions, "c", ..."what now?", "\r");
    press(state, actions, "C", "a", "C", "t", "C", "u", "C", "o");
    assert.deepEqual(calls.splice(0), [
      "ask what now?",
      'concierge {"action":"answer","answer":"routine"}',
      'concierge {"action":"act","act":true}',
      'concierge {"action":"undo"}',
      'concierge {"action":"off"}',
    ]);
    press(state, actions, "C", "n", ..."every 1h | look around", "\r", "C", "d", ..."#3", "\r");
    assert.deepEqual(calls, ["order every 1h look around", "drop order 3"]);
    lines = view(state);
    assert.match(lines.join("\n"), /── orders/);
    assert.match(
      lines.join("\n"),
      /#3 every 30m · next \d\d:\d\d:\d\d check the build · by user, applied 2x/,
    );
  });
});

test("a job in a worktree shows its branch, ahead/behind, changes and whether it merges on its row", () => {
  const worktree = worktreeRow({
    ahead: 2,
    behind: 1,
    files: 3,
    added: 10,
    removed: 2,
    mergeable: false,
    conflicts: ["a.ts"],
  });
  const lines = view(stateWith([row("w1", { name: "fix", worktree })]), 120, 24);
  assert.ok(
    lines.some((l) => l.includes("⎇ roost/fix ↑2 ↓1 · 3 files +10 −2 · conflicts (1) ·")),
    lines.join("\n"),
  );
  const plainRow = view(stateWith([row("p1", { name: "plain" })]), 120, 24);
  assert.ok(!plainRow.some((l) => l.includes("⎇")), "a job without a worktree shows none");
});
