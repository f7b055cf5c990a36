import { formatAge } from "../../hub/age.js";
import type { JobRow } from "../../protocol/rows.js";
import { el } from "./dom.js";
import { type ListActions, rowItem } from "./fleet-list.js";

interface Drawn {
  row: JobRow;
  selected: boolean;
  item: HTMLLIElement;
  age: Element | null;
}

/** How often the ages of rows that did not change are written again (they count in seconds). */
const AGES_EVERY_MS = 1000;

/**
 * The rows as the list has drawn them. A row's item is made again only when the row changed (a
 * change comes as a new row) or its selection did, and moved only when the order moved it; the
 * others' ages are written again once a second. A thousand rows changing a thousand times a second
 * cost the few items that changed in a frame, not the whole list.
 */
export class RowListView {
  private drawn = new Map<string, Drawn>();
  private agesAt = 0;
  private readonly empty = el("li", { class: "empty" });

  constructor(
    readonly element: HTMLUListElement,
    private readonly actions: ListActions,
  ) {}

  /** These rows, in this order; `emptyText` when there are none. */
  draw(shown: JobRow[], selected: string | null, now: number, emptyText: string): void {
    const next = new Map<string, Drawn>();
    const ages = now - this.agesAt >= AGES_EVERY_MS;
    if (ages) this.agesAt = now;
    for (const row of shown) {
      const was = this.drawn.get(row.id);
      const isSelected = row.id === selected;
      if (was && was.row === row && was.selected === isSelected) {
        if (ages && was.age) {
          const age = formatAge(now - Date.parse(row.updatedAt));
          if (was.age.textContent !== age) was.age.textContent = age;
        }
        next.set(row.id, was);
        continue;
      }
      was?.item.remove();
      const item = rowItem(row, isSelected, now, this.actions);
      next.set(row.id, { row, selected: isSelected, item, age: item.querySelector(".age") });
    }
    for (const [id, was] of this.drawn) if (!next.has(id)) was.item.remove();
    this.drawn = next;
    this.empty.remove();
    // In order: an item already in its place is left where it is.
    let cursor = this.element.firstChild;
    for (const { item } of next.values()) {
      if (item === cursor) cursor = cursor.nextSibling;
      else this.element.insertBefore(item, cursor);
    }
    if (shown.length > 0) return;
    this.empty.textContent = emptyText;
    this.element.append(this.empty);
  }
}
