/** How the list orders and filters rows: the hub's and the web page's alike. */
import type { JobRow } from "../protocol/rows.js";
import { rowLook } from "./row-look.js";

/** Pinned rows first, then the user's order; creation breaks ties. */
export function compareRows(a: JobRow, b: JobRow): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.order !== b.order) return a.order - b.order;
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

/** Whether a row holds the filter's text (any case) in what the list shows of it or its id. */
export function matchesFilter(row: JobRow, filter: string): boolean {
  if (filter === "") return true;
  const needle = filter.toLowerCase();
  const fields = [
    row.name,
    row.profile,
    row.cwd,
    row.summary,
    row.question,
    row.task,
    row.id,
    rowLook(row).label,
  ];
  return fields.some((f) => f?.toLowerCase().includes(needle));
}
