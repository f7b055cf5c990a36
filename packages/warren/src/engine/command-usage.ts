import { RunError } from "./errors.js";
import { describeValue } from "./tool-validation.js";
import type { Usage } from "./types.js";

/**
 * A command's optional `usage`, checked before the command is judged, like its ids and limits:
 * a malformed one is 422 unprocessable_command and one past a limit 422 limit_exceeded, the
 * command refused whole. The limits keep every run's totals exact integers (a run's byte budget
 * bounds its commands) while leaving room for any real decision's spending.
 */

/** input_tokens and output_tokens of one command: a billion each. */
export const MAX_USAGE_TOKENS = 1_000_000_000;
/** cost of one command, in the client's unit. */
export const MAX_USAGE_COST = 1_000_000_000;

/** What a usage adds, at most, to what a run keeps (its JSON: field names and three numbers). */
export const USAGE_CHARS = 100;

const FIELDS = ["input_tokens", "output_tokens", "cost"];

/** The command's usage, undefined when it has none; throws RunError for a bad one. */
export function usageOf(command: Record<string, unknown>): Usage | undefined {
  if (!("usage" in command)) return undefined;
  const usage = command.usage;
  if (usage === null || typeof usage !== "object" || Array.isArray(usage)) {
    throw malformed(
      `usage must be an object {input_tokens, output_tokens, cost?} (got ${describeValue(usage)})`,
    );
  }
  const fields = usage as Record<string, unknown>;
  const unknown = Object.keys(fields).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) {
    throw malformed(
      `usage has an unknown field "${unknown.slice(0, 64)}"; it takes input_tokens, output_tokens and cost`,
    );
  }
  const tokens = (field: "input_tokens" | "output_tokens"): number => {
    const value = fields[field];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw malformed(`usage.${field} must be an integer of at least 0 (got ${describeValue(value)})`);
    }
    return withinLimit(field, value, MAX_USAGE_TOKENS);
  };
  const reported: Usage = { input_tokens: tokens("input_tokens"), output_tokens: tokens("output_tokens") };
  if ("cost" in fields) {
    const cost = fields.cost;
    if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) {
      throw malformed(`usage.cost must be a number of at least 0 (got ${describeValue(cost)})`);
    }
    reported.cost = withinLimit("cost", cost, MAX_USAGE_COST);
  }
  return reported;
}

function withinLimit(field: string, value: number, limit: number): number {
  if (value > limit) {
    throw new RunError("limit_exceeded", `usage.${field} is ${value}; at most ${limit} is allowed`);
  }
  return value;
}

function malformed(detail: string): RunError {
  return new RunError("unprocessable_command", detail);
}
