/**
 * What a budget counts and when it is passed, apart from the daemon: a session's spend (its tokens
 * of all four kinds, and their cost where its model has a price), the day's as it grew, and the
 * words a row, the feed and the person are told it in.
 */
import type { Budget } from "../../home/budgets.js";
import type { TokenUsage } from "../../protocol/index.js";
import { dollars } from "../../protocol/usage-text.js";

/** What counts toward a budget: tokens, and dollars (what has no price adds none). */
export interface Spend {
  tokens: number;
  cost: number;
}

export const NO_SPEND: Spend = { tokens: 0, cost: 0 };

/** Dollars to the millionth, as costs are priced: sums of them do not drift. */
const micro = (dollars: number) => Math.round(dollars * 1_000_000) / 1_000_000;

export function spendOf(usage: TokenUsage | null): Spend {
  if (usage === null) return NO_SPEND;
  return {
    tokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
    cost: usage.cost ?? 0,
  };
}

export function plus(a: Spend, b: Spend): Spend {
  return { tokens: a.tokens + b.tokens, cost: micro(a.cost + b.cost) };
}

/**
 * What a session's spend adds to what was counted of it, never less than nothing: a record read
 * again from its start only catches up with what was counted already.
 */
export function grownBy(counted: Spend, now: Spend): Spend {
  return {
    tokens: Math.max(0, now.tokens - counted.tokens),
    cost: micro(Math.max(0, now.cost - counted.cost)),
  };
}

export function highest(a: Spend, b: Spend): Spend {
  return { tokens: Math.max(a.tokens, b.tokens), cost: Math.max(a.cost, b.cost) };
}

export function isNothing(spend: Spend): boolean {
  return spend.tokens === 0 && spend.cost === 0;
}

/** Whether a budget counts a session of this profile. */
export function countsProfile(budget: Budget, profile: string): boolean {
  return budget.profile === undefined || budget.profile === profile;
}

/** Past the limit, not at it: a budget of 20 tokens lets a session use 20. */
export function isPassed(budget: Budget, spend: Spend): boolean {
  return budget.tokens !== undefined ? spend.tokens > budget.tokens : spend.cost > (budget.cost ?? 0);
}

/** The same budget however the list is ordered: what its crossings are remembered by. */
export function budgetKey(budget: Budget): string {
  return JSON.stringify([budget.per, budget.action, budget.tokens, budget.cost, budget.profile]);
}

const tokensText = (n: number) => `${n.toLocaleString("en-US")} tokens`;

function amountText(budget: Budget, spend: Spend): string {
  return budget.tokens !== undefined ? tokensText(spend.tokens) : dollars(spend.cost);
}

/** `20 tokens a session`, `$5.00 a day for the claude sessions`. */
export function budgetName(budget: Budget): string {
  const limit = budget.tokens !== undefined ? tokensText(budget.tokens) : dollars(budget.cost ?? 0);
  const whose = budget.profile === undefined ? "" : ` for the ${budget.profile} sessions`;
  return `${limit} a ${budget.per}${whose}`;
}

/** A budget as it stands for one session: which (its place in roost.json's list), what it counted, whether it is passed. */
export interface Standing {
  budget: Budget;
  index: number;
  spend: Spend;
  passed: boolean;
}

/** `over its budget of 20 tokens a session (30 tokens used; budgets[0] in roost.json)`. */
export function passedText({ budget, index, spend }: Standing): string {
  const used =
    budget.per === "session"
      ? `${amountText(budget, spend)} used`
      : `${amountText(budget, spend)} used today by ${budget.profile === undefined ? "the fleet" : "them"}`;
  return `over ${budget.per === "session" ? "its" : "the"} budget of ${budgetName(budget)} (${used}; budgets[${index}] in roost.json)`;
}

/**
 * The budgets that count a session of `profile`, each as it stands: a per-session one by the
 * session's spend, a per-day one by the day's of the sessions it counts (`day` gives a profile's,
 * or the fleet's).
 */
export function standings(
  budgets: readonly Budget[],
  profile: string,
  session: Spend,
  day: (profile: string | undefined) => Spend,
): Standing[] {
  const out: Standing[] = [];
  budgets.forEach((budget, index) => {
    if (!countsProfile(budget, profile)) return;
    const spend = budget.per === "session" ? session : day(budget.profile);
    out.push({ budget, index, spend, passed: isPassed(budget, spend) });
  });
  return out;
}

/**
 * Which crossings were told: a budget passed in a scope (a session, or a day) is news once, and
 * again only once the scope has come back under it (a fresh conversation, a budget raised) and
 * passed it anew.
 */
export class Crossings {
  private readonly told = new Map<string, Set<string>>();

  /** Whether `key`, passed or not now in `scope`, is news: true once per crossing. */
  crossed(scope: string, key: string, passed: boolean): boolean {
    const keys = this.told.get(scope);
    if (!passed) {
      keys?.delete(key);
      return false;
    }
    if (keys?.has(key)) return false;
    this.told.set(scope, (keys ?? new Set<string>()).add(key));
    return true;
  }

  forget(scope: string): void {
    this.told.delete(scope);
  }
}
