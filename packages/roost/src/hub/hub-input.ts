import { availablePanes, type HubState } from "./hub-state.js";
import { effectiveSelection } from "./hub-view.js";
import { keyOf, type ListCommand, listCommand } from "./key-map.js";
import { editLine, emptyEditor } from "./line-editor.js";
import { listEntries, rowEntries } from "./row-list.js";
import { isWaiting } from "./row-look.js";

/** What the keys ask of the daemon and of the hub around the view. */
export interface HubActions {
  reply(id: string, text: string, steer: boolean): void;
  stop(id: string): void;
  respawn(id: string): void;
  remove(id: string): void;
  setPinned(id: string, pinned: boolean): void;
  rename(id: string, name: string): void;
  /** Swaps the row with its neighbour in the user's order (`-1` up, `1` down). */
  move(id: string, direction: -1 | 1): void;
  /** Reads the profiles (into the state) before the profile picker shows. */
  loadProfiles(): void;
  dispatch(profile: string, task: string): void;
  attach(id: string): void;
  redraw(): void;
  quit(): void;
}

function shownRowIds(state: HubState): string[] {
  return rowEntries(listEntries(state.rows, state.grouping, state.filter)).map((e) => e.row.id);
}

function selection(state: HubState): string | null {
  return effectiveSelection(state, listEntries(state.rows, state.grouping, state.filter));
}

function moveSelection(state: HubState, by: number | "top" | "bottom"): void {
  const ids = shownRowIds(state);
  if (ids.length === 0) return;
  const current = Math.max(0, ids.indexOf(selection(state) ?? ""));
  const target = by === "top" ? 0 : by === "bottom" ? ids.length - 1 : current + by;
  state.selectedId = ids[Math.max(0, Math.min(ids.length - 1, target))]!;
}

/** Jumps to the next (or previous) waiting row after the selection, wrapping around. */
function jumpToWaiting(state: HubState, direction: 1 | -1): void {
  const entries = rowEntries(listEntries(state.rows, state.grouping, state.filter));
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
  // One-key picks: a digit on a waiting row with choices sends that choice.
  if (/^[1-9]$/.test(key)) {
    withSelected(state, (id) => {
      const row = state.rows.get(id)!;
      const choice = row.choices[Number(key) - 1];
      if (!isWaiting(row) || choice === undefined) {
        state.notice = { text: `${row.name} offers no choice ${key}.`, tone: "info" };
        return;
      }
      actions.reply(id, choice, false);
    });
    return;
  }
  const command = listCommand(key);
  if (command !== undefined) LIST_COMMANDS[command](state, actions, pageSize);
}

type CommandRun = (state: HubState, actions: HubActions, pageSize: number) => void;

const NO_STEER = "A terminal agent takes a reply as its next input: there is no steer (Enter replies).";

/** A terminal agent's held reply starts the editor, to send as the answer to what it asks now. */
function startEditor(kind: "reply" | "steer"): CommandRun {
  return (state) =>
    withSelected(state, (id) => {
      const row = state.rows.get(id)!;
      if (kind === "steer" && row.kind === "terminal") {
        state.notice = { text: NO_STEER, tone: "info" };
        return;
      }
      state.mode = { kind: "reply", id, steer: kind === "steer", editor: emptyEditor(row.held?.text ?? "") };
    });
}

function cyclePane(state: HubState): void {
  const panes = availablePanes(state);
  if (panes.length === 0) {
    state.notice = { text: "This daemon has no events, board or schedules yet.", tone: "info" };
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
      state.mode = { kind: "confirm-remove", id };
    }),
  attach: (state, actions) => withSelected(state, (id) => actions.attach(id)),
  stop: (state, actions) => withSelected(state, (id) => actions.stop(id)),
  respawn: (state, actions) => withSelected(state, (id) => actions.respawn(id)),
  pin: (state, actions) => withSelected(state, (id) => actions.setPinned(id, !state.rows.get(id)!.pinned)),
  "move-up": (state, actions) => withSelected(state, (id) => actions.move(id, -1)),
  "move-down": (state, actions) => withSelected(state, (id) => actions.move(id, 1)),
  new: (state, actions) => {
    actions.loadProfiles();
    state.mode = { kind: "dispatch-profile", choice: 0 };
  },
  filter: (state) => {
    state.mode = { kind: "filter", editor: emptyEditor(state.filter), previous: state.filter };
  },
  "clear-filter": (state) => {
    state.filter = "";
    state.notice = null;
  },
  group: (state) => {
    state.grouping = state.grouping === "dir" ? "state" : "dir";
  },
  pane: cyclePane,
  help: (state) => {
    state.mode = { kind: "help" };
  },
  redraw: (_state, actions) => actions.redraw(),
  quit: (_state, actions) => actions.quit(),
};

/**
 * Applies one key to the hub: the UI state changes here, and what needs the daemon goes to
 * `actions`. `pageSize` is how many rows a page key moves.
 */
export function handleKey(state: HubState, data: string, actions: HubActions, pageSize: number): void {
  const key = keyOf(data);
  const mode = state.mode;
  switch (mode.kind) {
    case "list":
      if (key !== undefined) runListCommand(state, key, actions, pageSize);
      return;
    case "help":
      state.mode = { kind: "list" };
      return;
    case "confirm-remove":
      if (key === "y" || key === "Y") {
        actions.remove(mode.id);
        state.mode = { kind: "list" };
      } else if (key === "n" || key === "N" || key === "escape" || key === "ctrl+c")
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
        state.mode = { kind: "dispatch-task", profile: state.profiles[mode.choice]!, editor: emptyEditor() };
      return;
    }
    case "reply":
    case "rename":
    case "filter":
    case "dispatch-task":
      editorKey(state, key, data, actions);
      return;
  }
}

function editorKey(state: HubState, key: string | undefined, data: string, actions: HubActions): void {
  const mode = state.mode;
  if (
    mode.kind !== "reply" &&
    mode.kind !== "rename" &&
    mode.kind !== "filter" &&
    mode.kind !== "dispatch-task"
  )
    return;
  if (key === "escape" || key === "ctrl+c") {
    if (mode.kind === "filter") state.filter = "";
    state.mode = { kind: "list" };
    return;
  }
  if (key === "ctrl+t" && mode.kind === "reply") {
    if (state.rows.get(mode.id)?.kind === "terminal") state.notice = { text: NO_STEER, tone: "info" };
    else mode.steer = !mode.steer;
    return;
  }
  if (key === "enter") {
    const text = mode.editor.text.trim();
    state.mode = { kind: "list" };
    if (mode.kind === "reply" && text !== "") actions.reply(mode.id, text, mode.steer);
    if (mode.kind === "rename" && text !== "") actions.rename(mode.id, text);
    if (mode.kind === "dispatch-task") actions.dispatch(mode.profile, text);
    if (mode.kind === "filter") state.filter = text;
    return;
  }
  const edited = editLine(mode.editor, key, data);
  if (edited === undefined) return;
  mode.editor = edited;
  // The filter applies as it is typed.
  if (mode.kind === "filter") state.filter = edited.text;
}
