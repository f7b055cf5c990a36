import type { Happening, ToolContext } from "../engine/tool.js";
import type { AgentState } from "../engine/world.js";

/**
 * Credits `agent` the first time anyone makes `step`, a step on the way to the objectives (an item
 * picked up, a plate read), so a run that gets partway scores above one that never starts. Each
 * step counts once however often it is repeated.
 */
export function creditFirst(ctx: ToolContext, step: string, agent: AgentState, what: string): void {
  const key = `step_${step}`;
  if (ctx.world.flags.get(key) === true) return;
  ctx.world.flags.set(key, true);
  ctx.credit(agent, what);
}

/** The first pick-up of each item of these kinds, by an agent allowed to carry it, is a step. */
export function creditFirstPickUp(ctx: ToolContext, happening: Happening, kinds: readonly string[]): void {
  if (happening.kind !== "took" || !kinds.includes(happening.item.kind)) return;
  creditFirst(ctx, `took_${happening.item.id}`, happening.agent, `picked up ${happening.item.id}`);
}

/** The first arrival at one of these places by an agent of `role` is a step. */
export function creditFirstArrival(
  ctx: ToolContext,
  happening: Happening,
  role: string,
  places: readonly string[],
  what: (place: string) => string,
): void {
  if (happening.kind !== "arrived" || happening.agent.role !== role) return;
  const place = ctx.world.placeAt(happening.agent.cell)?.id;
  if (place && places.includes(place)) creditFirst(ctx, `reached_${place}`, happening.agent, what(place));
}
