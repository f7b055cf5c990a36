import { acceptSuggestion, conciergeMenuKey, openAsk, openConciergeMenu } from "./concierge-keys.js";
import { editorKey, NO_STEER } from "./editor-keys.js";
import { replyStarts } from "./finished-reply.js";
import type { HubActions } from "./hub-actions.js";
import { availablePanes, type HubState, holdPlace, shownEntries } from "./hub-state.js";
import { effectiveSelection } from "./hub-view.js";
import { keyOf, type ListCommand, listCommand } from "./key-map.js";
import { emptyEditor } from "./line-editor.js";
import { rowEntries } from "./row-list.js";
import { isWaiting } from "./row-look.js";

export type { HubActions } from "./hub-actions.js";

function shownRowIds(state: HubState): string[] {
  return rowEntries(shownEntries(state)).map((e) => e.row.id);
}

function selection(state: HubState): string | null {
  return effectiveSelection(state, shownEntries(state));
}

function moveSelection(state: HubState, by: number | "top" | "bottom"): void {
  state.heldGroups.clear();
  const ids = shownRowIds(state);
  if (ids.length === 0) return;
  const current = Math.max(0, ids.indexOf(selection(state) ?? ""));
  const target = by === "top" ? 0 : by === "bottom" ? ids.length - 1 : current + by;
  state.selectedId = ids[Math.max(0, Math.min(ids.length - 1, target))]!;
}

/** Jumps to the next (or previous) waiting row after the selection, wrapping around. */
function jumpToWaiting(state: HubState, direction: 1 | -1): void {
  state.heldGroups.clear();
  const entries = rowEntries(shownEntries(state));
  const waiting = entries.filter((e) => isWaiting(e.row)).map((e) => e.row.id);
  if (waiting.length === 0) {
    state.notice = { text: "No session is waiting for you.", tone: "info" };
    return;
  }
  const ids = entries.map((e) => e.row.id);
  const at = ids.indexOf(selection(state) ?? "");
  for (let step = 1; step <= ids.length; step++) {
    const id = ids[(((at + direction * step) % ids.length) + ids.length) % ids.length]!;
    if (waiting.includes(id)) {
      state.selectedId = id;
      return;
    }
  }
}

function withSelected(state: HubState, then: (id: string) => void): void {
  const id = selection(state);
  if (id === null) {
    state.notice = { text: "No session selected.", tone: "info" };
    return;
  }
  then(id);
}

function runListCommand(state: HubState, key: string, actions: HubActions, pageSize: number): void {
  // One-key picks: a digit on a waiting row sends the choice of that number the screen shows.
  if (/^[1-9]$/.test(key)) {
    withSelected(state, (id) => pickChoice(state, id, Number(key), actions));
    return;
  }
  const command = listCommand(key);
  if (command !== undefined) LIST_COMMANDS[command](state, actions, pageSize);
}

/**
 * Picks choice `n` of the row, only as the screen shows it: a choice not drawn (its line cut off, a
 * menu too long for the row) is not sent, and the person is told where to see it.
 */
function pickChoice(state: HubState, id: string, n: number, actions: HubActions): void {
  const row = state.rows.get(id)!;
  if (!isWaiting(row) || row.choices[n - 1] === undefined) {
    state.notice = { text: `${row.name} offers no choice ${n}.`, tone: "info", row: id };
    return;
  }
  const picks = state.picks.get(id);
  const shown = picks?.choices.get(n);
  if (shown === undefined) {
    state.notice = {
      text: `Choice ${n} of ${row.name} is not shown, so ${n} picks nothing: i shows every choice.`,
      tone: "info",
      row: id,
    };
    return;
  }
  holdPlace(state, id);
  actions.pick(id, shown, picks!.question);
}

type CommandRun = (state: HubState, actions: HubActions, pageSize: number) => void;

function replyMode(id: string, steer: boolean, text: string, start: boolean): HubState["mode"] {
  return { kind: "reply", id, steer, editor: emptyEditor(text), start };
}

/** A terminal agent's held reply starts the editor, to send as the answer to what it asks now. */
function startEditor(kind: "reply" | "steer"): CommandRun {
  return (state) =>
    withSelected(state, (id) => {
      const row = state.rows.get(id)!;
      if (kind === "steer" && row.kind === "terminal") {
        state.notice = { text: NO_STEER, tone: "info" };
        return;
      }
      // A finished command that would run anew asks first (nothing runs unless confirmed).
      if (replyStarts(row) === "reruns") state.mode = { kind: "confirm-start", id };
      else state.mode = replyMode(id, kind === "steer", row.held?.text ?? "", false);
    });
}

/** Stop and respawn end a running process: they ask first then; on an ended job they act at once. */
function confirmingWhileLive(action: "stop" | "respawn"): CommandRun {
  return (state, actions) =>
    withSelected(state, (id) => {
      const lifecycle = state.rows.get(id)?.lifecycle;
      if (lifecycle === "running" || lifecycle === "starting") state.mode = { kind: "confirm", action, id };
      else {
        holdPlace(state, id);
        actions[action](id);
      }
    });
}

/** `d` and `m` act on a job's worktree: a row without one says how to get one. */
function withWorktree(state: HubState, then: (id: string) => void): void {
  withSelected(state, (id) => {
    const row = state.rows.get(id)!;
    if (row.worktree) then(id);
    else
      state.notice = {
        text: `${row.name} works in no worktree of roost's: nothing to diff or merge (dispatch with --worktree).`,
        tone: "info",
      };
  });
}

function cyclePane(state: HubState): void {
  const panes = availablePanes(state);
  if (panes.length === 0) {
    state.notice = { text: "This daemon has no events, board, schedules or orders yet.", tone: "info" };
    return;
  }
  const at = state.pane === null ? -1 : panes.indexOf(state.pane);
  state.pane = at + 1 < panes.length ? panes[at + 1]! : null;
}

const LIST_COMMANDS: Record<ListCommand, CommandRun> = {
  up: (state) => moveSelection(state, -1),
  down: (state) => moveSelection(state, 1),
  "page-up": (state, _actions, pageSize) => moveSelection(state, -pageSize),
  "page-down": (state, _actions, pageSize) => moveSelection(state, pageSize),
  top: (state) => moveSelection(state, "top"),
  bottom: (state) => moveSelection(state, "bottom"),
  "next-waiting": (state) => jumpToWaiting(state, 1),
  "previous-waiting": (state) => jumpToWaiting(state, -1),
  reply: startEditor("reply"),
  steer: startEditor("steer"),
  rename: (state) =>
    withSelected(state, (id) => {
      state.mode = { kind: "rename", id, editor: emptyEditor(state.rows.get(id)!.name) };
    }),
  remove: (state) =>
    withSelected(state, (id) => {
      state.mode = { kind: "confirm", action: "remove", id };
    }),
  attach: (state, actions) => withSelected(state, (id) => actions.attach(id)),
  describe: (state, actions) =>
    withSelected(state, (id) => {
      state.mode = { kind: "detail", id, scroll: 0 };
      actions.describe(id);
    }),
  transcript: (state, actions) =>
    withSelected(state, (id) => {
      state.mode = { kind: "transcript", id, scroll: 0, follow: true };
      actions.transcript(id);
    }),
  diff: (state, actions) =>
    withWorktree(state, (id) => {
      state.mode = { kind: "diff", id, scroll: 0 };
      actions.diff(id);
    }),
  merge: (state, actions) =>
    withWorktree(state, (id) => {
      const plan = { result: null, error: null };
      state.mode = { kind: "confirm-merge", id, plan };
      actions.planMerge(id, plan);
    }),
  stop: confirmingWhileLive("stop"),
  respawn: confirmingWhileLive("respawn"),
  pin: (state, actions) => withSelected(state, (id) => actions.setPinned(id, !state.rows.get(id)!.pinned)),
  "move-up": (state, actions) => withSelected(state, (id) => actions.move(id, -1)),
  "move-down": (state, actions) => withSelected(state, (id) => actions.move(id, 1)),
  new: (state, actions) => {
    actions.loadProfiles();
    state.mode = { kind: "dispatch-profile", choice: 0 };
  },
  "add-task": (state) => {
    if (state.board === null) {
      state.notice = { text: "This daemon has no task board.", tone: "info" };
      return;
    }
    state.mode = { kind: "add-task", editor: emptyEditor() };
  },
  schedules: (state) => {
    if (state.schedules === null) {
      state.notice = { text: "This daemon has no schedules.", tone: "info" };
      return;
    }
    // The pane shows them while one is chosen.
    state.pane = "schedules";
    state.mode = { kind: "schedule-pick", choice: 0 };
  },
  accept: (state, actions) => withSelected(state, (id) => acceptSuggestion(state, id, actions)),
  ask: openAsk,
  concierge: openConciergeMenu,
  filter: (state) => {
    state.mode = { kind: "filter", editor: emptyEditor(state.filter), previous: state.filter };
  },
  "clear-filter": (state) => {
    state.filter = "";
    state.notice = null;
  },
  group: (state) => {
    state.heldGroups.clear();
    state.grouping = state.grouping === "dir" ? "state" : "dir";
  },
  pane: cyclePane,
  help: (state) => {
    state.mode = { kind: "help", scroll: 0 };
  },
  redraw: (_state, actions) => actions.redraw(),
  quit: (_state, actions) => actions.quit(),
};

/** Moves a scrolled overlay (the help, the details, a diff, a transcript) for a key; false when the key does not scroll. */
function scrollKey(
  mode: { scroll: number },
  key: string | undefined,
  pageSize: number,
  most: number,
): boolean {
  const by: Record<string, number> = {
    up: -1,
    k: -1,
    down: 1,
    j: 1,
    pageUp: -pageSize,
    pageDown: pageSize,
    home: -Infinity,
    end: Infinity,
  };
  const step = key === undefined ? undefined : by[key];
  if (step === undefined) return false;
  mode.scroll = Math.max(0, Math.min(most, mode.scroll + step));
  return true;
}

/** Keys that close a row's overlay rather than act on the row: Esc and the like, and the overlay's own key. */
const CLOSES_OVERLAY = new Set(["escape", "q", "ctrl+c", "?", "f1"]);
const OWN_KEY = { detail: "i", diff: "d", transcript: "t" } as const;

/** A key that does not scroll a row's overlay closes it; a key of the list then acts on the row shown. */
function closeOverlay(
  state: HubState,
  mode: { kind: keyof typeof OWN_KEY; id: string },
  key: string | undefined,
  actions: HubActions,
  pageSize: number,
): void {
  state.mode = { kind: "list" };
  state.selectedId = mode.id;
  if (key !== undefined && !CLOSES_OVERLAY.has(key) && key !== OWN_KEY[mode.kind])
    runListCommand(state, key, actions, pageSize);
}

/**
 * Applies one key to the hub: the UI state changes here, and what needs the daemon goes to
 * `actions`. `pageSize` is how many rows (or overlay lines) a page key moves; `overlayMost` how far
 * the help or the details scroll.
 */
export function handleKey(
  state: HubState,
  data: string,
  actions: HubActions,
  pageSize: number,
  overlayMost = Number.MAX_SAFE_INTEGER,
): void {
  const wasList = state.mode.kind === "list";
  applyKey(state, data, actions, pageSize, overlayMost);
  // What the last action said is over once a dialog opens: it does not come back after it.
  if (wasList && state.mode.kind !== "list") state.notice = null;
}

function applyKey(
  state: HubState,
  data: string,
  actions: HubActions,
  pageSize: number,
  overlayMost: number,
): void {
  const key = keyOf(data);
  const mode = state.mode;
  switch (mode.kind) {
    case "list":
      if (key !== undefined) runListCommand(state, key, actions, pageSize);
      return;
    case "help":
      if (!scrollKey(mode, key, pageSize, overlayMost)) state.mode = { kind: "list" };
      return;
    case "transcript":
      // Following, it is at its end: a key up scrolls from there; back at the end, it follows again.
      if (mode.follow) mode.scroll = overlayMost;
      if (scrollKey(mode, key, pageSize, overlayMost)) {
        mode.follow = mode.scroll >= overlayMost;
        return;
      }
      closeOverlay(state, mode, key, actions, pageSize);
      return;
    case "detail":
    case "diff":
      if (scrollKey(mode, key, pageSize, overlayMost)) return;
      closeOverlay(state, mode, key, actions, pageSize);
      return;
    case "confirm-merge":
      // Only what the dry run showed is merged: before it is back, or when it refused, y does nothing.
      if ((key === "y" || key === "Y") && mode.plan.result !== null) {
        holdPlace(state, mode.id);
        actions.merge(mode.id);
        state.mode = { kind: "list" };
      } else if (key === "n" || key === "N" || key === "escape" || key === "ctrl+c")
        state.mode = { kind: "list" };
      return;
    case "confirm":
      if (key === "y" || key === "Y") {
        holdPlace(state, mode.id);
        actions[mode.action](mode.id);
        state.mode = { kind: "list" };
      } else if (key === "n" || key === "N" || key === "escape" || key === "ctrl+c")
        state.mode = { kind: "list" };
      return;
    case "confirm-start":
      if (key === "y" || key === "Y" || key === "enter") state.mode = replyMode(mode.id, false, "", true);
      else if (key === "n" || key === "N" || key === "escape" || key === "ctrl+c")
        state.mode = { kind: "list" };
      return;
    case "dispatch-profile": {
      const count = state.profiles.length;
      if (key === "escape" || key === "ctrl+c") state.mode = { kind: "list" };
      else if ((key === "left" || key === "up" || key === "shift+tab") && count > 0)
        mode.choice = (mode.choice - 1 + count) % count;
      else if ((key === "right" || key === "down" || key === "tab") && count > 0)
        mode.choice = (mode.choice + 1) % count;
      else if (key === "enter" && count > 0)
        state.mode = {
          kind: "dispatch-task",
          profile: state.profiles[mode.choice]!,
          field: "task",
          editor: emptyEditor(),
          // The selected row's folder (the work beside it); with no row, the person says which.
          values: { task: "", name: "", folder: state.rows.get(selection(state) ?? "")?.cwd ?? "" },
        };
      return;
    }
    case "schedule-pick": {
      const schedules = state.schedules ?? [];
      const chosen = schedules[mode.choice];
      if (key === "escape" || key === "ctrl+c" || key === "q") state.mode = { kind: "list" };
      else if ((key === "left" || key === "up") && schedules.length > 0)
        mode.choice = (mode.choice - 1 + schedules.length) % schedules.length;
      else if ((key === "right" || key === "down" || key === "tab") && schedules.length > 0)
        mode.choice = (mode.choice + 1) % schedules.length;
      else if ((key === "r" || key === "enter") && chosen) {
        // Back to the list, where the outcome shows.
        state.mode = { kind: "list" };
        actions.runSchedule(chosen.id);
      } else if (key === "p" && chosen) {
        state.mode = { kind: "list" };
        actions.pauseSchedule(chosen.id, !chosen.paused);
      }
      return;
    }
    case "concierge":
      conciergeMenuKey(state, key, actions);
      return;
    case "reply":
    case "rename":
    case "filter":
    case "dispatch-task":
    case "add-task":
    case "concierge-ask":
    case "add-order":
    case "drop-order":
      editorKey(state, key, data, actions);
      return;
  }
}
