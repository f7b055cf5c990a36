/**
 * What a model's tokens cost: one table, the defaults for the models Claude Code and Codex name,
 * each overridable (or added) in `roost.json`'s `prices`, per million tokens. A row's cost is its
 * usage priced by its model's entry; a model with no entry has no cost (unknown, never a guess).
 */
import { readFileSync } from "node:fs";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import type { TokenUsage } from "../protocol/index.js";

const PerMillion = Type.Number({ minimum: 0, description: "a price per million tokens, 0 or more" });

/** One model's prices, per million tokens. */
export const ModelPriceSchema = Type.Object(
  {
    input: PerMillion,
    output: PerMillion,
    cacheRead: Type.Optional(PerMillion),
    cacheWrite: Type.Optional(PerMillion),
  },
  {
    description:
      "an object of prices per million tokens: input, output, and optionally cacheRead, cacheWrite",
  },
);
export type ModelPrice = Static<typeof ModelPriceSchema>;

/** `prices` in roost.json: a model's id, or a prefix ending in `*`, to its prices. */
export const PricesSchema = Type.Record(Type.String({ minLength: 1 }), ModelPriceSchema, {
  description: 'an object: a model\'s id (or a prefix ending in "*") to its prices per million tokens',
});

/**
 * The defaults, in US dollars per million tokens, as Anthropic and OpenAI list them for these
 * families (cache writes at 1.25× input, cache reads at a tenth, where the provider prices them).
 */
export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  "claude-opus-*": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-sonnet-*": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-*": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "gpt-5*": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  "gpt-5-mini*": { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  "gpt-5-nano*": { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 },
};

/** The entry for a model: its own id first, then the longest matching prefix. */
export function priceOf(model: string | null, table: Record<string, ModelPrice>): ModelPrice | null {
  if (model === null) return null;
  if (table[model]) return table[model];
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    if (!key.endsWith("*") || !model.startsWith(key.slice(0, -1))) continue;
    if (best === null || key.length > best.length) best = key;
  }
  return best === null ? null : table[best]!;
}

/** What the usage cost at these prices, to a millionth. */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  const micro =
    usage.input * price.input +
    usage.output * price.output +
    usage.cacheRead * (price.cacheRead ?? price.input) +
    usage.cacheWrite * (price.cacheWrite ?? price.input);
  return Math.round(micro) / 1_000_000;
}

/** The table in use: the defaults with roost.json's `prices` over them (read on each use). */
export function readPrices(configFile: string): Record<string, ModelPrice> {
  try {
    const parsed = JSON.parse(readFileSync(configFile, "utf8")) as { prices?: unknown };
    // A bad `prices` is a finding of roost.json's check; the defaults hold meanwhile.
    if (parsed?.prices !== undefined && Value.Check(PricesSchema, parsed.prices)) {
      return { ...DEFAULT_PRICES, ...(parsed.prices as Record<string, ModelPrice>) };
    }
  } catch {
    // No file, or one the config check names.
  }
  return DEFAULT_PRICES;
}

/** The usage with its cost, when the agent gave none and its model has a price. */
export function pricedUsage(
  usage: TokenUsage | null,
  model: string | null,
  table: Record<string, ModelPrice>,
): TokenUsage | null {
  if (usage === null || usage.cost !== undefined) return usage;
  const price = priceOf(model, table);
  return price === null ? usage : { ...usage, cost: costOf(usage, price) };
}
