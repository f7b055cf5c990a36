import type { ToolContext } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { ledger } from "./map.js";

/**
 * A parcel put down at a house is delivered there: at its own address it counts; at any other
 * door it is signed for by a stranger and lost, and the round can no longer be complete. Put down
 * at the post office it simply waits again.
 */
export function reactToDrop(ctx: ToolContext, agent: AgentState, item: Item): void {
  if (item.kind !== "parcel") return;
  const place = ctx.world.placeAt(agent.cell);
  if (!place || place.id === "post_office") return;
  const address = String(ctx.world.flags.get(`address_${item.id}`));
  ctx.world.moveItem(item, { at: "gone" });
  if (place.id !== address) {
    ctx.emit("misdelivered", { agent: agent.id, item: item.id, at: place.id, address });
    ctx.fail("deliver", `${item.id} was left at ${place.id}, not its address`);
    return;
  }
  ctx.progress("deliver", 1);
}

/** A message giving a courier a parcel's right address credits the dispatcher, once per parcel. */
export function creditAddresses(ctx: ToolContext, agent: AgentState, text: string): void {
  for (const [parcel, house] of Object.entries(ledger(ctx.world))) {
    const key = `told_${parcel}`;
    if (ctx.world.flags.get(key) === true) continue;
    if (!new RegExp(`\\b${parcel}\\b[^,;.]*\\b${house}\\b`).test(text)) continue;
    ctx.world.flags.set(key, true);
    ctx.credit(agent, `told where ${parcel} goes`);
  }
}

/** The ledger is the dispatcher's: only the dispatcher reads it. */
export function townFeatures(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue> {
  if (place.id !== "post_office" || viewer.role !== "dispatcher") return {};
  return { ledger: ledger(world) };
}
