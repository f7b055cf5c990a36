import type { Report } from "../protocol/report.js";

/** The row's running text: a change to these alone goes at most every `summaryIntervalMs`. */
const PACED_FIELDS: readonly (keyof Report)[] = ["summary", "tool", "context", "usage"];

export const DEFAULT_SUMMARY_INTERVAL_MS = 3000;

export type ReportUrgency = "none" | "now" | "paced";

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * How soon a report must go, given the last one sent: a change of state, status, waitingFor, the
 * question (or any other field) at once; a change of the running text alone, paced.
 */
export function reportUrgency(next: Report, sent: Report | undefined): ReportUrgency {
  if (!sent) return "now";
  let paced = false;
  for (const field of Object.keys(next) as (keyof Report)[]) {
    if (same(next[field], sent[field])) continue;
    if (!PACED_FIELDS.includes(field)) return "now";
    paced = true;
  }
  return paced ? "paced" : "none";
}
