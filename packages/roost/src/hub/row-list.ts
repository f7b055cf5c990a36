import { homedir } from "node:os";
import type { JobRow } from "../protocol/rows.js";
import { rowLook, STATE_GROUPS, type StateGroup } from "./row-look.js";
import { compareRows, matchesFilter } from "./row-query.js";

export { compareRows, matchesFilter };

/** One line-group of the list: a group's heading, or a row (with its depth under its parent). */
export type Entry =
  | { kind: "group"; label: string; count: number }
  | { kind: "row"; row: JobRow; depth: number; parentName: string | null; sharedName: boolean };

export type RowEntry = Extract<Entry, { kind: "row" }>;

function idIn(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string")
    return (value as { id: string }).id;
  return null;
}

/**
 * The parent's id, when the daemon gives rows one: `parentSession` (the parent job) or `parent`;
 * rows from a daemon without spawning have neither.
 */
function parentId(row: JobRow, rows?: Map<string, JobRow>): string | null {
  const linked = row as JobRow & { parentSession?: unknown; parent?: unknown };
  const candidates = [idIn(linked.parentSession), idIn(linked.parent)].filter(
    (id): id is string => id !== null,
  );
  return candidates.find((id) => rows?.has(id)) ?? candidates[0] ?? null;
}

/** A folder as the user reads it: the home folder as `~`. */
export function shortPath(path: string, home = homedir()): string {
  if (home !== "/" && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

/** How the rows are grouped: by their folder, or by their state. */
export type Grouping = "dir" | "state";

export function groupKey(row: JobRow, grouping: Grouping, held: ReadonlyMap<string, string>): string {
  return grouping === "dir" ? row.cwd : (held.get(row.id) ?? rowLook(row).group);
}

/** Names more than one row has (the spec allows it): those rows show their ids too. */
function sharedNames(rows: Map<string, JobRow>): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const row of rows.values()) (seen.has(row.name) ? shared : seen).add(row.name);
  return shared;
}

/** Rows in order, each child right after its parent (when both are in `rows`), with its depth. */
function asTree(rows: JobRow[], byId: Map<string, JobRow>, shared: Set<string>): RowEntry[] {
  const present = new Set(rows.map((r) => r.id));
  const children = new Map<string, JobRow[]>();
  const roots: JobRow[] = [];
  for (const row of rows) {
    const parent = parentId(row, byId);
    if (parent !== null && present.has(parent) && parent !== row.id) {
      const list = children.get(parent) ?? [];
      list.push(row);
      children.set(parent, list);
    } else roots.push(row);
  }
  const out: RowEntry[] = [];
  const seen = new Set<string>();
  const visit = (row: JobRow, depth: number) => {
    if (seen.has(row.id)) return; // A cycle in the parents: each row once.
    seen.add(row.id);
    const parent = parentId(row, byId);
    out.push({
      kind: "row",
      row,
      depth,
      parentName: parent ? (byId.get(parent)?.name ?? null) : null,
      sharedName: shared.has(row.name),
    });
    for (const child of children.get(row.id) ?? []) visit(child, depth + 1);
  };
  for (const row of roots) visit(row, 0);
  for (const row of rows) visit(row, 0);
  return out;
}

/**
 * The list as shown: rows that match the filter, grouped by folder or by state, pinned first then
 * the user's order; by folder, children sit under their parent. By state, a row in `held` stays in
 * the group named there (the one it was in when the user acted on it).
 */
export function listEntries(
  rows: Map<string, JobRow>,
  grouping: Grouping,
  filter: string,
  held: ReadonlyMap<string, string> = new Map(),
): Entry[] {
  const shown = [...rows.values()].filter((r) => matchesFilter(r, filter)).sort(compareRows);
  const groups = new Map<string, JobRow[]>();
  for (const row of shown) {
    const key = groupKey(row, grouping, held);
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  const keys = [...groups.keys()];
  const shared = sharedNames(rows);
  if (grouping === "state")
    keys.sort((a, b) => STATE_GROUPS.indexOf(a as StateGroup) - STATE_GROUPS.indexOf(b as StateGroup));
  const out: Entry[] = [];
  for (const key of keys) {
    const members = groups.get(key)!;
    out.push({ kind: "group", label: grouping === "dir" ? shortPath(key) : key, count: members.length });
    if (grouping === "dir") out.push(...asTree(members, rows, shared));
    else
      for (const row of members) {
        const parent = parentId(row, rows);
        out.push({
          kind: "row",
          row,
          depth: 0,
          parentName: parent ? (rows.get(parent)?.name ?? parent) : null,
          sharedName: shared.has(row.name),
        });
      }
  }
  return out;
}

export function rowEntries(entries: Entry[]): RowEntry[] {
  return entries.filter((e): e is RowEntry => e.kind === "row");
}
