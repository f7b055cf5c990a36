import { visibleWidth } from "@mariozechner/pi-tui";
import type { JobRow } from "../protocol/rows.js";
import { costToday, dollars } from "../protocol/usage-text.js";
import { askLines } from "./ask-lines.js";
import { hintLine, statusLine } from "./bottom-lines.js";
import { boxLines, boxRoom, maxScroll, wrapText } from "./box-view.js";
import { conciergeLine, suggestedLine } from "./concierge-view.js";
import { detailBody, detailLines } from "./detail-view.js";
import { diffBody, diffOverlayLines } from "./diff-view.js";
import { replyNote } from "./finished-reply.js";
import { helpBody, helpLines } from "./help-view.js";
import { availablePanes, type HubState, type Mode, picksOf, shownEntries } from "./hub-state.js";
import { boardSummary, paneLines } from "./pane-view.js";
import type { Entry, RowEntry } from "./row-list.js";
import { asksUser, isWaiting } from "./row-look.js";
import { fit, groupLine, heldLine, inPlaceEditorLine, rowLine } from "./row-view.js";
import {
  bold,
  cyan,
  dim,
  errorBackground,
  green,
  red,
  selectedBackground,
  waitingBackground,
  yellow,
} from "./style.js";
import { transcriptBody, transcriptLines } from "./transcript-view.js";

/** The size of the lower pane for a screen `height` lines high. */
function paneHeight(height: number): number {
  return Math.max(3, Math.min(10, Math.floor(height / 3)));
}

/** Lines taken by everything but the list: the title, a banner while disconnected, the two bottom lines. */
function chromeHeight(state: HubState): number {
  return 3 + (state.connection === "connected" ? 0 : 1) + (state.concierge ? 1 : 0);
}

/** The pane shown, if the daemon supports it. */
function shownPane(state: HubState) {
  return state.pane !== null && availablePanes(state).includes(state.pane) ? state.pane : null;
}

/** How many lines the list has on a screen `height` lines high. */
export function listHeight(state: HubState, height: number): number {
  const pane = shownPane(state) ? paneHeight(height) : 0;
  return Math.max(1, height - chromeHeight(state) - pane);
}

/** The id of the row the selection is on: the selected one if shown, else the first shown. */
export function effectiveSelection(state: HubState, entries: Entry[]): string | null {
  let first: string | null = null;
  for (const e of entries) {
    if (e.kind !== "row") continue;
    if (e.row.id === state.selectedId) return e.row.id;
    first ??= e.row.id;
  }
  return first;
}

function editingIn(mode: Mode, id: string) {
  if (mode.kind === "reply" && mode.id === id)
    return { kind: mode.steer ? "steer" : "reply", editor: mode.editor, start: mode.start } as const;
  if (mode.kind === "rename" && mode.id === id) return { kind: "rename", editor: mode.editor } as const;
  return null;
}

/** An entry's lines, and for a row that asks, the choices drawn and the line each is on. */
function entryLines(
  entry: Entry,
  state: HubState,
  width: number,
  now: number,
  selectedId: string | null,
): { lines: string[]; drawn: { n: number; line: number }[] } {
  if (entry.kind === "group") return { lines: [groupLine(entry.label, entry.count, width)], drawn: [] };
  const { row } = entry;
  const selected = row.id === selectedId;
  const changedAt = state.changedAt.get(row.id) ?? Date.parse(row.updatedAt);
  const lines = [rowLine(entry as RowEntry, width, now - changedAt, selected, state.grouping)];
  let drawn: { n: number; line: number }[] = [];
  if (asksUser(row)) {
    const ask = askLines(row, width, selected);
    const background = selected ? selectedBackground : waitingBackground;
    drawn = ask.drawn.map((d) => ({ n: d.n, line: d.line + lines.length }));
    lines.push(...ask.lines.map((l) => background(fit(l, width))));
  }
  const suggested = suggestedLine(row, width, selected);
  if (suggested !== null) lines.push(suggested);
  const held = heldLine(row, width, selected);
  if (held !== null) lines.push(held);
  const editing = editingIn(state.mode, row.id);
  if (editing) {
    const note = "start" in editing ? replyNote(row, editing.start === true) : null;
    lines.push(inPlaceEditorLine(editing.kind, editing.editor, width, note));
  }
  return { lines, drawn };
}

/**
 * The lines a row takes while it is neither selected nor edited, by the row (a changed row is a new
 * object) and the screen's width: paging asks for every row above the selection, and drawing them
 * all to count their lines made the frame cost what the fleet holds rather than what the screen shows.
 */
const restingHeights = new WeakMap<JobRow, { width: number; height: number }>();

function entryHeight(
  entry: Entry,
  state: HubState,
  width: number,
  now: number,
  selectedId: string | null,
): number {
  if (entry.kind === "group") return 1;
  const { row } = entry;
  const resting = row.id !== selectedId && editingIn(state.mode, row.id) === null;
  const known = resting ? restingHeights.get(row) : undefined;
  if (known?.width === width) return known.height;
  const height = entryLines(entry, state, width, now, selectedId).lines.length;
  if (resting) restingHeights.set(row, { width, height });
  return height;
}

/** The index of the first entry of the page the selection is on (pages: screens of whole entries). */
function pageStart(
  heightOf: (i: number) => number,
  entries: Entry[],
  selectedId: string | null,
  room: number,
): number {
  if (selectedId === null) return 0;
  let start = 0;
  let used = 0;
  for (let i = 0; i < entries.length; i++) {
    const h = Math.min(room, heightOf(i));
    if (used + h > room) {
      start = i;
      used = 0;
    }
    used += h;
    const e = entries[i]!;
    if (e.kind === "row" && e.row.id === selectedId) return start;
  }
  return 0;
}

/**
 * The list's lines. What it draws of each row's choices is kept in `state.picks`: a digit
 * picks only a choice the person can see.
 */
function listLines(state: HubState, entries: Entry[], width: number, room: number, now: number): string[] {
  if (entries.length === 0) {
    const text =
      state.filter !== ""
        ? `  No rows match "${state.filter}". Esc clears the filter.`
        : state.connection === "connected"
          ? "  No sessions yet. Press n to dispatch one from a profile, ? for every key."
          : "";
    return [fit(dim(text), width)];
  }
  const selectedId = effectiveSelection(state, entries);
  const heightOf = (i: number) => entryHeight(entries[i]!, state, width, now, selectedId);
  const out: string[] = [];
  // Only the page's entries are drawn.
  for (let i = pageStart(heightOf, entries, selectedId, room); i < entries.length && out.length < room; i++) {
    const entry = entries[i]!;
    const { lines, drawn } = entryLines(entry, state, width, now, selectedId);
    if (entry.kind === "row" && drawn.length > 0) {
      const onScreen = drawn.filter((d) => out.length + d.line < room).map((d) => d.n);
      state.picks.set(entry.row.id, picksOf(entry.row, onScreen));
    }
    out.push(...lines);
  }
  return out.slice(0, room);
}

function titleLine(state: HubState, entries: Entry[], width: number, now: number): string {
  const total = state.rows.size;
  let waiting = 0;
  for (const row of state.rows.values()) if (isWaiting(row)) waiting++;
  const parts = [bold("roost hub"), `${total} session${total === 1 ? "" : "s"}`];
  if (waiting > 0) parts.push(bold(yellow(`${waiting} waiting`)));
  parts.push(dim(state.grouping === "dir" ? "by folder" : "by state"));
  const today = costToday(state.rows.values(), now);
  if (today !== null) parts.push(dim(`${dollars(today)} today`));
  if (state.filter !== "") {
    const shown = entries.filter((e) => e.kind === "row").length;
    parts.push(cyan(`filter "${state.filter}" (${shown})`));
  }
  const counts = state.board?.counts;
  // An empty board is not worth the room.
  if (counts && counts.open + counts.claimed + counts.blocked + counts.done > 0)
    parts.push(dim(`board ${boardSummary(counts)}`));
  const link =
    state.connection === "connected"
      ? green("● daemon")
      : state.connection === "connecting"
        ? yellow("… connecting")
        : red("✗ daemon gone");
  const left = ` ${parts.join(dim(" · "))}`;
  const room = width - visibleWidth(link) - 1;
  return fit(`${fit(left, Math.max(0, room))}${room > 0 ? link : ""} `, width);
}

function bannerLine(state: HubState, width: number): string {
  const text =
    state.connection === "connecting"
      ? " Connecting to the daemon…"
      : ` The daemon is gone: start it with roost daemon (or any roost command); the hub reconnects by itself. Rows are as last seen.${state.connectionDetail ? ` (${state.connectionDetail})` : ""}`;
  return errorBackground(fit(text, width));
}

/** The help and the details take the list's room and the pane's; a transcript the whole screen but the bottom lines. */
function overlayHeight(state: HubState, height: number): number {
  if (state.mode.kind === "transcript")
    return Math.max(3, height - 2 - (state.connection === "connected" ? 0 : 1));
  return listHeight(state, height) + (shownPane(state) ? paneHeight(height) : 0);
}

/** How far the overlay shown (the help, the details, a diff) scrolls on this screen. */
export function overlayScrollMost(state: HubState, width: number, height: number, now: number): number {
  const room = boxRoom(overlayHeight(state, height));
  if (state.mode.kind === "help") return maxScroll(helpBody(width).length, room);
  if (state.mode.kind === "detail" && state.detail)
    return maxScroll(detailBody(state.detail, now, width).lines.length, room);
  if (state.mode.kind === "diff")
    return maxScroll(diffBody(state.diff?.id === state.mode.id ? state.diff : null).length, room);
  if (state.mode.kind === "transcript") {
    const transcript = state.transcript?.id === state.mode.id ? state.transcript : null;
    const name = state.rows.get(state.mode.id)?.name ?? state.mode.id;
    return maxScroll(transcriptBody(transcript, name, width).length, room);
  }
  return 0;
}

/**
 * The whole screen as lines, from the state alone: the title, a banner while the daemon is away,
 * the list (or the help), the lower pane, the status line and the key hints. Exactly `height`
 * lines, none wider than `width`.
 */
export function renderHub(state: HubState, width: number, height: number, now: number): string[] {
  // Set again by what is drawn below: the list's selected row, or the details.
  state.picks = new Map();
  const mode = state.mode;
  if (mode.kind === "transcript") {
    const lines = state.connection === "connected" ? [] : [bannerLine(state, width)];
    lines.push(...transcriptLines(state, mode, width, overlayHeight(state, height)));
    lines.push(statusLine(state, width), hintLine(mode.kind, width));
    return lines.slice(0, height);
  }
  const entries = shownEntries(state);
  const lines = [titleLine(state, entries, width, now)];
  if (state.connection !== "connected") lines.push(bannerLine(state, width));
  const pane = shownPane(state);
  const room = listHeight(state, height);
  if (mode.kind === "help") lines.push(...helpLines(width, overlayHeight(state, height), mode.scroll));
  else if (mode.kind === "dispatch-profile" && state.profilesError !== null)
    lines.push(
      ...boxLines(
        "roost.json",
        wrapText(state.profilesError, width - 4),
        width,
        overlayHeight(state, height),
        0,
        "Esc: back",
      ),
    );
  else if (mode.kind === "detail")
    lines.push(...detailLines(state, width, overlayHeight(state, height), now, mode.scroll));
  else if (mode.kind === "diff")
    lines.push(...diffOverlayLines(state, mode.id, width, overlayHeight(state, height), mode.scroll));
  else {
    const list = listLines(state, entries, width, room, now);
    while (list.length < room) list.push("");
    lines.push(...list);
    if (pane) lines.push(...paneLines(state, pane, width, paneHeight(height)));
  }
  if (state.concierge) lines.push(conciergeLine(state, width));
  lines.push(statusLine(state, width));
  lines.push(hintLine(state.mode.kind, width, state.rows.size === 0));
  while (lines.length < height) lines.push("");
  return lines.slice(0, height);
}
