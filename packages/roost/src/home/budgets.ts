/**
 * `budgets` in roost.json: how much one session, or the fleet in a day, may use (tokens, or US
 * dollars at the price table's prices), and what is done once it is passed: the session `stop`ped,
 * or the person told (`notify`). `profile` narrows a budget to that profile's sessions.
 */
import { readFileSync } from "node:fs";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";

/** Every usage update is checked against each budget: a list past this is a finding, not a slowdown. */
export const MAX_BUDGETS = 100;

export const BudgetSchema = Type.Object(
  {
    tokens: Type.Optional(Type.Integer({ minimum: 1, description: "a whole number of tokens, 1 or more" })),
    cost: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: "an amount in US dollars, more than 0" }),
    ),
    per: Type.Union([Type.Literal("session"), Type.Literal("day")], { description: "one of session, day" }),
    action: Type.Union([Type.Literal("stop"), Type.Literal("notify")], {
      description: "one of stop, notify",
    }),
    profile: Type.Optional(Type.String({ minLength: 1, description: "a profile's name" })),
  },
  {
    additionalProperties: false,
    description: "an object: tokens or cost, per, action, and optionally profile",
  },
);
export type Budget = Static<typeof BudgetSchema>;

export const BudgetsSchema = Type.Array(BudgetSchema, {
  maxItems: MAX_BUDGETS,
  description: `an array of at most ${MAX_BUDGETS} budgets`,
});

/**
 * What is wrong with budgets the schema takes, each at its key: one of `tokens` and `cost`, and a
 * `profile` that is one of `profiles` (when they are known).
 */
export function budgetRules(
  budgets: Budget[],
  profiles: ReadonlySet<string> | null,
): { key: string; want: string }[] {
  const wrong: { key: string; want: string }[] = [];
  budgets.forEach((budget, i) => {
    if ((budget.tokens === undefined) === (budget.cost === undefined))
      wrong.push({ key: `budgets[${i}]`, want: "must give one of tokens or cost (a budget counts one)" });
    if (profiles && budget.profile !== undefined && !profiles.has(budget.profile))
      wrong.push({
        key: `budgets[${i}].profile`,
        want: `must be one of the profiles (${[...profiles].join(", ")}), not ${JSON.stringify(budget.profile)}`,
      });
  });
  return wrong;
}

/**
 * The budgets roost.json gives: none without the file or the key; null when they are bad (the
 * config check names the key, and the daemon keeps the last good ones meanwhile).
 */
export function readBudgets(configFile: string): Budget[] | null {
  let parsed: { budgets?: unknown };
  try {
    parsed = JSON.parse(readFileSync(configFile, "utf8")) as { budgets?: unknown };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? [] : null;
  }
  const budgets = parsed?.budgets;
  if (budgets === undefined) return [];
  if (!Value.Check(BudgetsSchema, budgets)) return null;
  return budgetRules(budgets, null).length === 0 ? budgets : null;
}
