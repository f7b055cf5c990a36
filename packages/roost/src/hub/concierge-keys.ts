/** The hub's concierge keys: its menu (on/off, the policy, undo, orders) and the suggested answer. */
import { ANSWER_POLICIES } from "../protocol/concierge.js";
import type { HubActions } from "./hub-actions.js";
import { type HubState, holdPlace } from "./hub-state.js";
import { emptyEditor } from "./line-editor.js";
import { isWaiting } from "./row-look.js";
import { oneLine } from "./style.js";

const NO_CONCIERGE = "This daemon has no concierge.";

/** `y` on a waiting row the concierge suggested an answer for: it goes as the user's reply. */
export function acceptSuggestion(state: HubState, id: string, actions: HubActions): void {
  const row = state.rows.get(id)!;
  if (!row.suggested || !isWaiting(row)) {
    state.notice = { text: `The concierge suggests nothing for ${row.name}.`, tone: "info" };
    return;
  }
  holdPlace(state, id);
  actions.reply(id, row.suggested.text, false);
}

export function openAsk(state: HubState): void {
  const status = state.concierge?.status;
  if (!status) state.notice = { text: NO_CONCIERGE, tone: "info" };
  // Asked, a concierge that failed or cannot run would not answer: the person is told why first.
  else if (status.failed !== null)
    state.notice = {
      text: `The concierge failed: ${oneLine(status.failed)} · C o starts it again.`,
      tone: "error",
    };
  else if (!status.running && status.unavailable !== null)
    state.notice = { text: `The concierge cannot run: ${oneLine(status.unavailable)}`, tone: "warn" };
  else state.mode = { kind: "concierge-ask", editor: emptyEditor() };
}

export function openConciergeMenu(state: HubState): void {
  if (state.concierge === null) state.notice = { text: NO_CONCIERGE, tone: "info" };
  else state.mode = { kind: "concierge" };
}

/** A key in the concierge's menu: each acts and goes back to the list, where the outcome shows. */
export function conciergeMenuKey(state: HubState, key: string | undefined, actions: HubActions): void {
  const status = state.concierge?.status;
  if (!status || key === "escape" || key === "ctrl+c" || key === "q") {
    state.mode = { kind: "list" };
    return;
  }
  if (key === "n") {
    state.pane = "orders";
    state.mode = { kind: "add-order", editor: emptyEditor() };
    return;
  }
  if (key === "d") {
    state.pane = "orders";
    state.mode = { kind: "drop-order", editor: emptyEditor() };
    return;
  }
  const next = ANSWER_POLICIES[(ANSWER_POLICIES.indexOf(status.policy.answer) + 1) % ANSWER_POLICIES.length];
  const args: Record<string, Record<string, unknown>> = {
    o: { action: status.running ? "off" : "on" },
    a: { action: "answer", answer: next },
    t: { action: "act", act: !status.policy.act },
    u: { action: "undo" },
  };
  const chosen = key === undefined ? undefined : args[key];
  if (!chosen) return;
  state.mode = { kind: "list" };
  actions.concierge(chosen);
}

/** `every 30m | check the build` is an order on a clock; text alone stands on none. */
export function readOrderLine(line: string): { when: string | null; text: string } {
  const bar = line.indexOf("|");
  if (bar === -1) return { when: null, text: line.trim() };
  return { when: line.slice(0, bar).trim() || null, text: line.slice(bar + 1).trim() };
}
