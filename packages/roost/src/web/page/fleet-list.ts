import { formatAge } from "../../hub/age.js";
import { asksUser, isWaiting, rowLook, rowSays, STATE_GROUPS } from "../../hub/row-look.js";
import { compareRows, matchesFilter } from "../../hub/row-query.js";
import type { JobRow } from "../../protocol/rows.js";
import { button, el } from "./dom.js";

/** Which rows the list shows: all, or one of the hub's state groups. */
export type StateFilter = "all" | (typeof STATE_GROUPS)[number];

export interface ListActions {
  select(id: string): void;
  /** A choice's button: its text sent as the reply to the question shown beside it. */
  pick(row: JobRow, choice: string, question: string | null): void;
}

/** Each row's place among the state groups, kept with the row: a change comes as a new row. */
const groups = new WeakMap<JobRow, number>();
function groupOf(row: JobRow): number {
  let group = groups.get(row);
  if (group === undefined) {
    group = STATE_GROUPS.indexOf(rowLook(row).group);
    groups.set(row, group);
  }
  return group;
}

/** Waiting rows first, then the hub's order of state groups, then the person's order. */
export function orderedRows(rows: Iterable<JobRow>, filter: string, state: StateFilter): JobRow[] {
  const only = state === "all" ? -1 : STATE_GROUPS.indexOf(state);
  return [...rows]
    .filter((row) => matchesFilter(row, filter) && (only === -1 || groupOf(row) === only))
    .sort((a, b) => groupOf(a) - groupOf(b) || compareRows(a, b));
}

/** One row as the hub shows it: its mark and word, its name, what it says; a waiting one its question and choices. */
export function rowItem(row: JobRow, selected: boolean, now: number, actions: ListActions): HTMLLIElement {
  const look = rowLook(row);
  const item = el(
    "li",
    {
      class: `row state-${look.label}${isWaiting(row) ? " waiting" : ""}${selected ? " selected" : ""}`,
      data: { id: row.id },
      on: { click: () => actions.select(row.id) },
    },
    el(
      "div",
      { class: "line" },
      el("span", { class: "glyph", title: look.label }, look.glyph),
      el("span", { class: "name" }, row.name),
      el("span", { class: "label" }, look.label),
      el("span", { class: "says" }, rowSays(row)),
      row.pinned && el("span", { class: "pin", title: "pinned" }, "⚑"),
      el("span", { class: "age" }, formatAge(now - Date.parse(row.updatedAt))),
    ),
  );
  if (asksUser(row)) item.append(askLine(row, actions));
  return item;
}

function askLine(row: JobRow, actions: ListActions): HTMLDivElement {
  const question = row.question;
  return el(
    "div",
    { class: "ask" },
    question && el("span", { class: "question" }, `? ${question}`),
    choiceButtons(row, question, actions.pick),
  );
}

/** A waiting row's choices as buttons; each answers the question shown with it, whatever comes after. */
export function choiceButtons(
  row: JobRow,
  question: string | null,
  pick: ListActions["pick"],
): HTMLDivElement {
  const buttons = row.choices.map((choice, at) => {
    const node = button(`${at + 1} ${choice}`, () => pick(row, choice, question), "choice");
    node.addEventListener("click", (event) => event.stopPropagation());
    return node;
  });
  return el("div", { class: "choices" }, ...buttons);
}
