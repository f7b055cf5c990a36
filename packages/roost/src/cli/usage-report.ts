/**
 * `roost usage`'s report: the rows' tokens and cost summed by session, profile or day (the day a
 * session began, in local time). A row whose usage is unknown counts as a session with none; one
 * whose model has no price counts its tokens and is said to be unpriced, its cost left out.
 */
import type { JobRow } from "../protocol/rows.js";
import { terminalSafe } from "../protocol/terminal-text.js";
import { dollars, localDay } from "../protocol/usage-text.js";
import { alignedTable } from "./format.js";

export const USAGE_GROUPINGS = ["session", "profile", "day"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageGroup {
  key: string;
  sessions: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Summed over the sessions that have a cost. */
  cost: number;
  /** Sessions with usage but no cost (their model has no price). */
  unpriced: number;
  /** Sessions whose usage is not known. */
  unknown: number;
}

export interface UsageReport {
  by: UsageGrouping;
  since: string | null;
  groups: UsageGroup[];
  total: UsageGroup;
}

function keyOf(row: JobRow, by: UsageGrouping): string {
  if (by === "profile") return row.profile;
  if (by === "day") return localDay(Date.parse(row.createdAt));
  return `${row.name} (${row.id})`;
}

function emptyGroup(key: string): UsageGroup {
  return {
    key,
    sessions: 0,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cost: 0,
    unpriced: 0,
    unknown: 0,
  };
}

function add(group: UsageGroup, row: JobRow): void {
  group.sessions++;
  const usage = row.usage;
  if (!usage) {
    group.unknown++;
    return;
  }
  group.input += usage.input;
  group.output += usage.output;
  group.cacheRead += usage.cacheRead;
  group.cacheWrite += usage.cacheWrite;
  if (usage.cost === undefined) group.unpriced++;
  else group.cost = Math.round((group.cost + usage.cost) * 1_000_000) / 1_000_000;
}

/**
 * `--since`: a day (YYYY-MM-DD, from its local midnight) or an ISO 8601 time; the time in ms, or
 * null for text that is neither.
 */
export function parseSince(text: string): number | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  if (day && localDay(ms) !== text) return null;
  return ms;
}

/** The report of the rows begun at or after `since` (ms), grouped `by`, in the groups' order of first row. */
export function usageReport(
  rows: JobRow[],
  by: UsageGrouping,
  since: { text: string; ms: number } | null,
): UsageReport {
  const groups = new Map<string, UsageGroup>();
  const total = emptyGroup("total");
  const counted = since ? rows.filter((row) => Date.parse(row.createdAt) >= since.ms) : rows;
  const ordered =
    by === "day" ? [...counted].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) : counted;
  for (const row of ordered) {
    const key = keyOf(row, by);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = emptyGroup(key)));
    add(group, row);
    add(total, row);
  }
  return { by, since: since?.text ?? null, groups: [...groups.values()], total };
}

const money = (group: UsageGroup) =>
  group.sessions === group.unknown || group.unpriced === group.sessions - group.unknown
    ? "—"
    : dollars(group.cost);

/** The report as a table, a line a group and the total, and what could not be counted said under it. */
export function usageTable(report: UsageReport): string {
  const header = [
    report.by.toUpperCase(),
    "SESSIONS",
    "INPUT",
    "OUTPUT",
    "CACHE READ",
    "CACHE WRITE",
    "COST",
  ];
  const line = (g: UsageGroup) => [
    terminalSafe(g.key),
    String(g.sessions),
    String(g.input),
    String(g.output),
    String(g.cacheRead),
    String(g.cacheWrite),
    money(g),
  ];
  const table = alignedTable(
    [header, ...report.groups.map(line), line(report.total)],
    new Set([1, 2, 3, 4, 5, 6]),
  );
  const notes: string[] = [];
  const { unpriced, unknown } = report.total;
  if (unpriced > 0)
    notes.push(
      `${unpriced} session${unpriced === 1 ? "" : "s"} with no price for its model (roost.json "prices"): left out of the cost`,
    );
  if (unknown > 0) notes.push(`${unknown} session${unknown === 1 ? "" : "s"} whose usage is not known`);
  return [table, ...notes].join("\n");
}
