import type { JobRow } from "../protocol/rows.js";
import {
  type Entry,
  type Grouping,
  groupKey,
  listEntries,
  matchesFilter,
  type RowEntry,
} from "./row-list.js";

/** Whether the list would place `row` where it placed `before`: its order, group, tree and filter alike. */
function samePlace(
  before: JobRow,
  row: JobRow,
  grouping: Grouping,
  filter: string,
  held: ReadonlyMap<string, string>,
): boolean {
  const linked = (r: JobRow) => r as JobRow & { parentSession?: unknown; parent?: unknown };
  return (
    before.pinned === row.pinned &&
    before.order === row.order &&
    before.createdAt === row.createdAt &&
    before.name === row.name &&
    before.cwd === row.cwd &&
    linked(before).parentSession === linked(row).parentSession &&
    linked(before).parent === linked(row).parent &&
    groupKey(before, grouping, held) === groupKey(row, grouping, held) &&
    matchesFilter(before, filter) === matchesFilter(row, filter)
  );
}

/**
 * `listEntries`, remembered from one frame to the next. A row that changes without moving (a new
 * summary, a state within its group) is put in its entry's place; only a change of order, group,
 * tree, name or filter match lays the list out again. With one row changing every millisecond, a
 * frame no longer sorts and groups the whole fleet. Rows are never changed in place: a changed row
 * is a new object, which is how a change is seen.
 */
export class RememberedList {
  private last: {
    rows: Map<string, JobRow>;
    grouping: Grouping;
    filter: string;
    held: string;
    seen: Map<string, JobRow>;
    at: Map<string, number>;
    entries: Entry[];
  } | null = null;

  entries(
    rows: Map<string, JobRow>,
    grouping: Grouping,
    filter: string,
    held: ReadonlyMap<string, string> = new Map(),
  ): Entry[] {
    const heldKey = JSON.stringify([...held]);
    const last = this.last;
    if (
      last !== null &&
      last.rows === rows &&
      last.grouping === grouping &&
      last.filter === filter &&
      last.held === heldKey &&
      last.seen.size === rows.size
    ) {
      const moved: JobRow[] = [];
      let same = true;
      for (const [id, row] of rows) {
        const before = last.seen.get(id);
        if (before === row) continue;
        if (before === undefined || !samePlace(before, row, grouping, filter, held)) {
          same = false;
          break;
        }
        moved.push(row);
      }
      if (same) {
        if (moved.length === 0) return last.entries;
        const entries = last.entries.slice();
        for (const row of moved) {
          last.seen.set(row.id, row);
          const i = last.at.get(row.id);
          if (i !== undefined) entries[i] = { ...(entries[i] as RowEntry), row };
        }
        last.entries = entries;
        return entries;
      }
    }
    const entries = listEntries(rows, grouping, filter, held);
    const at = new Map<string, number>();
    entries.forEach((e, i) => {
      if (e.kind === "row") at.set(e.row.id, i);
    });
    this.last = { rows, grouping, filter, held: heldKey, seen: new Map(rows), at, entries };
    return entries;
  }
}
