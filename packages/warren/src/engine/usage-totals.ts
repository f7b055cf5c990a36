import type { AgentUsage, RunUsage, Usage } from "./types.js";

/**
 * The arithmetic of usage: sums per agent and for the team, and the score against them. Costs
 * are summed as reported and given to nine decimals, so sums of decimal costs read as written.
 */

/** Two usages as one (say, a refused try's carried into the next command): a cost when either has one. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return a ?? b;
  const sum: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  if (a.cost !== undefined || b.cost !== undefined) sum.cost = (a.cost ?? 0) + (b.cost ?? 0);
  return sum;
}

/** An agent's totals with one more accepted command's usage. */
export function countUsage(total: AgentUsage | undefined, usage: Usage): AgentUsage {
  const cost = usage.cost === undefined ? (total?.cost ?? null) : (total?.cost ?? 0) + usage.cost;
  return {
    commands: (total?.commands ?? 0) + 1,
    input_tokens: (total?.input_tokens ?? 0) + usage.input_tokens,
    output_tokens: (total?.output_tokens ?? 0) + usage.output_tokens,
    cost: cost === null ? null : roundCost(cost),
  };
}

/** The team's usage and the score against it; undefined when no agent reported usage. */
export function runUsage(score: number, agents: readonly (AgentUsage | undefined)[]): RunUsage | undefined {
  const reported = agents.filter((a): a is AgentUsage => a !== undefined);
  if (reported.length === 0) return undefined;
  const input = reported.reduce((sum, a) => sum + a.input_tokens, 0);
  const output = reported.reduce((sum, a) => sum + a.output_tokens, 0);
  const costs = reported.flatMap((a) => (a.cost === null ? [] : [a.cost]));
  const cost = costs.length === 0 ? null : roundCost(costs.reduce((sum, c) => sum + c, 0));
  return {
    input_tokens: input,
    output_tokens: output,
    cost,
    score_per_1k_tokens: scorePer1kTokens(score, input + output),
    score_per_cost: scorePerCost(score, cost),
  };
}

/** score × 1000 / tokens; null with no tokens. */
export function scorePer1kTokens(score: number, tokens: number): number | null {
  return tokens > 0 ? (score * 1000) / tokens : null;
}

/** score / cost; null with no cost, or a cost of 0. */
export function scorePerCost(score: number, cost: number | null): number | null {
  return cost !== null && cost > 0 ? score / cost : null;
}

function roundCost(cost: number): number {
  return Math.round(cost * 1e9) / 1e9;
}
