import type { RunScores } from "../engine/index.js";
import { scorePer1kTokens, scorePerCost } from "../engine/usage-totals.js";

/** What a row's usage needs of a run (a digest of a record has its score, and its usage if it reported any). */
export interface UsageDigest {
  /** The run's `scores.score`. */
  score?: number;
  /** Its agents' usage summed. */
  usage?: { input_tokens: number; output_tokens: number; cost: number | null };
}

export function usageDigestOf({ score, usage }: RunScores): UsageDigest {
  if (!usage) return { score };
  const { input_tokens, output_tokens, cost } = usage;
  return { score, usage: { input_tokens, output_tokens, cost } };
}

/**
 * A row's score against what its agents spent: given in a sweep where some run reported usage.
 * Means are per run over all the row's runs, a run that reported nothing counting 0; the ratios
 * are the row's mean score over its mean tokens (× 1000) and mean cost, so a run spending more
 * weighs more, and a run with no usage divides nothing by 0.
 */
export interface RowUsage {
  /** Mean `scores.score`: 1 for a completed run, partial credit otherwise. */
  mean_score: number;
  /** null when no run of the row reported usage. */
  mean_input_tokens: number | null;
  mean_output_tokens: number | null;
  /** null when no run of the row reported a cost. */
  mean_cost: number | null;
  score_per_1k_tokens: number | null;
  score_per_cost: number | null;
}

export function rowUsage(runs: readonly UsageDigest[]): RowUsage {
  const mean = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / runs.length;
  const score = mean(runs.map((r) => r.score ?? 0));
  const reported = runs.some((r) => r.usage !== undefined);
  const tokens = mean(runs.map((r) => (r.usage ? r.usage.input_tokens + r.usage.output_tokens : 0)));
  const cost = runs.some((r) => r.usage?.cost != null) ? mean(runs.map((r) => r.usage?.cost ?? 0)) : null;
  return {
    mean_score: score,
    mean_input_tokens: reported ? mean(runs.map((r) => r.usage?.input_tokens ?? 0)) : null,
    mean_output_tokens: reported ? mean(runs.map((r) => r.usage?.output_tokens ?? 0)) : null,
    mean_cost: cost,
    score_per_1k_tokens: reported ? scorePer1kTokens(score, tokens) : null,
    score_per_cost: scorePerCost(score, cost),
  };
}

/** The table's usage columns, beside the other means. */
export const USAGE_COLUMNS = ["score", "score/1k tok", "score/cost", "tokens", "cost"];

export function usageCells(row: RowUsage): string[] {
  const fixed = (x: number | null, digits: number): string => (x === null ? "-" : x.toFixed(digits));
  const tokens =
    row.mean_input_tokens === null || row.mean_output_tokens === null
      ? null
      : row.mean_input_tokens + row.mean_output_tokens;
  return [
    fixed(row.mean_score, 3),
    fixed(row.score_per_1k_tokens, 4),
    fixed(row.score_per_cost, 3),
    fixed(tokens, 1),
    fixed(row.mean_cost, 4),
  ];
}
