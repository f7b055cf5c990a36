/** Keys in the hub's one-line editors: a reply, a rename, the filter, a new job's fields, a task. */
import { readOrderLine } from "./concierge-keys.js";
import type { HubActions } from "./hub-actions.js";
import { DISPATCH_FIELDS, type HubState, holdPlace } from "./hub-state.js";
import { editLine, emptyEditor } from "./line-editor.js";

/** Said when steer is asked of a terminal agent. */
export const NO_STEER =
  "A terminal agent takes a reply as its next input: there is no steer (Enter replies).";

/** Tab in a new job's line: keeps what was typed and moves to the next field (task, name, folder). */
function nextDispatchField(mode: Extract<HubState["mode"], { kind: "dispatch-task" }>, by: 1 | -1): void {
  mode.values[mode.field] = mode.editor.text;
  const at = DISPATCH_FIELDS.indexOf(mode.field);
  mode.field = DISPATCH_FIELDS[(at + by + DISPATCH_FIELDS.length) % DISPATCH_FIELDS.length]!;
  mode.editor = emptyEditor(mode.values[mode.field]);
}

export function editorKey(state: HubState, key: string | undefined, data: string, actions: HubActions): void {
  const mode = state.mode;
  if (!("editor" in mode)) return;
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
  if ((key === "tab" || key === "shift+tab") && mode.kind === "dispatch-task") {
    nextDispatchField(mode, key === "tab" ? 1 : -1);
    return;
  }
  if (key === "enter") {
    const text = mode.editor.text.trim();
    state.mode = { kind: "list" };
    if (mode.kind === "reply" && text !== "") {
      holdPlace(state, mode.id);
      actions.reply(mode.id, text, mode.steer, mode.start);
    }
    if (mode.kind === "rename" && text !== "") actions.rename(mode.id, text);
    if (mode.kind === "dispatch-task") {
      const values = { ...mode.values, [mode.field]: mode.editor.text };
      const folder = values.folder.trim();
      if (folder === "") {
        // No folder is guessed (the hub's own is rarely the one): the person is asked for it.
        mode.values = values;
        mode.field = "folder";
        mode.editor = emptyEditor();
        state.mode = mode;
        return;
      }
      actions.dispatch(mode.profile, values.task.trim(), values.name.trim(), folder);
    }
    if (mode.kind === "add-task" && text !== "") actions.addTask(text);
    if (mode.kind === "concierge-ask" && text !== "") actions.askConcierge(text);
    if (mode.kind === "add-order" && text !== "") {
      const order = readOrderLine(text);
      actions.addOrder(order.when, order.text);
    }
    if (mode.kind === "drop-order" && text !== "") actions.dropOrder(text.replace(/^#/, ""));
    if (mode.kind === "filter") state.filter = text;
    return;
  }
  const edited = editLine(mode.editor, key, data);
  if (edited === undefined) return;
  mode.editor = edited;
  // The filter applies as it is typed.
  if (mode.kind === "filter") state.filter = edited.text;
}
