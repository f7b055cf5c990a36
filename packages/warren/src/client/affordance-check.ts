import type { Affordance, CommandPayload } from "../protocol/index.js";

/**
 * Why the envelope's affordances exclude this payload (an action not offered now, or an argument
 * outside its offered choices), or undefined when they allow it. Sleeps and noops are always allowed.
 */
export function excludedByAffordances(
  affordances: readonly Affordance[],
  payload: CommandPayload,
): string | undefined {
  if (!("action" in payload)) return undefined;
  const offered = affordances.find((a) => a.action === payload.action);
  if (!offered) {
    const names = affordances.map((a) => a.action);
    return `"${payload.action}" is not offered now; offered: ${names.length ? names.join(", ") : "nothing (sleep or noop)"}`;
  }
  for (const [param, { choices }] of Object.entries(offered.params)) {
    const value = payload.args?.[param];
    if (!choices.includes(value as string | number)) {
      return `${payload.action}'s ${param} must be one of ${choices.join(", ")} now (got ${JSON.stringify(value)})`;
    }
  }
  return undefined;
}
