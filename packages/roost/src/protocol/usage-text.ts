/** A session's usage and cost in words, as the hub, the page and `roost usage` say them. */
import type { TokenUsage } from "./usage.js";

/** Dollars to the cent, or to the millionth below a cent (a test's or a cheap model's). */
export function dollars(cost: number): string {
  return `$${cost.toFixed(cost > 0 && cost < 0.01 ? 6 : 2)}`;
}

/** `10 in · 5 out · 0 cache read · 0 cache write · $0.000105` (no cost: its model has no price). */
export function usageLine(usage: TokenUsage): string {
  const tokens = `${usage.input} in · ${usage.output} out · ${usage.cacheRead} cache read · ${usage.cacheWrite} cache write`;
  return `${tokens} · ${usage.cost === undefined ? "no price for its model" : dollars(usage.cost)}`;
}

/** A time's local date as YYYY-MM-DD: the day `roost usage --by day` and the per-day budgets count by. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The cost of the rows begun on the local day of `now`: null when none of them has one. */
export function costToday(
  rows: Iterable<{ createdAt: string; usage?: TokenUsage | null }>,
  now: number,
): number | null {
  const start = new Date(now).setHours(0, 0, 0, 0);
  const end = new Date(start).setDate(new Date(start).getDate() + 1);
  let total: number | null = null;
  for (const row of rows) {
    const cost = row.usage?.cost;
    if (cost === undefined) continue;
    const began = Date.parse(row.createdAt);
    if (!(began >= start && began < end)) continue;
    total = Math.round(((total ?? 0) + cost) * 1_000_000) / 1_000_000;
  }
  return total;
}
