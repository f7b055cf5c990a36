import { visibleWidth } from "@mariozechner/pi-tui";
import type { StandingOrder } from "../protocol/concierge.js";
import type { BoardCounts, HubState, PaneKind } from "./hub-state.js";
import { fit } from "./row-view.js";
import { bold, cyan, dim, grey, oneLine } from "./style.js";

/** A time as the clock on the wall reads it (HH:MM:SS, local), eight columns. */
export function clockTime(at: string | null): string {
  if (!at) return "        ";
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return oneLine(at).slice(0, 8).padEnd(8);
  return date.toTimeString().slice(0, 8);
}

function paneItems(state: HubState, pane: PaneKind): string[] {
  if (pane === "events")
    return (state.events ?? []).map(
      (e) => `${dim(clockTime(e.at))} ${bold(oneLine(e.who))} ${cyan(oneLine(e.kind))} ${oneLine(e.text)}`,
    );
  if (pane === "board")
    return (state.board?.tasks ?? []).map(
      (t) =>
        `${dim(`#${t.id}`)} ${cyan(t.state.padEnd(8))} ${oneLine(t.title)}${t.owner ? dim(` · ${oneLine(t.owner)}`) : ""}`,
    );
  if (pane === "orders") return (state.concierge?.orders ?? []).map(orderItem);
  return (state.schedules ?? []).map(
    (s) =>
      `${bold(oneLine(s.name))} ${cyan(oneLine(s.when))}${s.paused ? dim(" (paused)") : ""}${s.next ? dim(` · next ${clockTime(s.next)}`) : ""}`,
  );
}

/** A standing order of the concierge: its number, its clock, its text, who gave it. */
export function orderItem(order: StandingOrder): string {
  const clock = order.when
    ? `${cyan(oneLine(order.when))}${dim(` · next ${clockTime(order.nextAt)}`)}`
    : dim("standing");
  return `${dim(`#${order.id}`)} ${clock} ${oneLine(order.text)}${dim(` · by ${order.by}, applied ${order.count}x`)}`;
}

/** What an empty pane says, with how to fill it. */
const EMPTY: Record<PaneKind, string> = {
  events: "nothing has happened yet: dispatch a job (n) or reply to one, and it shows here",
  board: "the board is empty: T adds a task (or roost tasks add TITLE); agents claim them",
  schedules: 'no schedules: roost schedule add "every 30m" PROFILE [TASK] adds one',
  orders: "no standing orders for the concierge: C n adds one (every 30m | check the build)",
};

/** The lower pane: a heading and the newest items that fit in `height` lines (heading included). */
export function paneLines(state: HubState, pane: PaneKind, width: number, height: number): string[] {
  const title = `── ${pane === "board" && state.board ? `board · ${boardSummary(state.board.counts)}` : pane} `;
  const heading = fit(grey(`${title}${"─".repeat(Math.max(0, width - visibleWidth(title)))}`), width);
  const items = paneItems(state, pane).map((line) => fit(oneLineStyled(line), width));
  const room = height - 1;
  const shown = items.length === 0 ? [fit(dim(`  ${EMPTY[pane]}`), width)] : items.slice(-room);
  while (shown.length < room) shown.push("");
  return [heading, ...shown.slice(0, room)];
}

/** Styled text keeps its styles (what came from an agent in it was made one line above); line breaks go. */
function oneLineStyled(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ");
}

/** The board's counts in few words: blocked only when there are some. */
export function boardSummary(c: BoardCounts): string {
  return `${c.open} open ${c.claimed} claimed${c.blocked > 0 ? ` ${c.blocked} blocked` : ""} ${c.done} done`;
}
