import type { ToolContext } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { addresses, RESIDENTS } from "./map.js";

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

/**
 * The parcels and houses a whole message gives, as the dispatcher's briefing says to give a
 * round: "Your round: parcel-3 to house_b, parcel-5 to house_c." Any other text gives none.
 */
export function roundIn(text: string): [parcel: string, house: string][] {
  const m = /^your round: ((?:parcel-\d+ to house_[a-h])(?:, parcel-\d+ to house_[a-h])*)\.?$/i.exec(
    text.trim(),
  );
  if (!m) return [];
  return m[1]!.split(", ").map((pair) => pair.toLowerCase().split(" to ") as [string, string]);
}

/** A round giving a parcel its right address credits the dispatcher, once per parcel. */
export function creditAddresses(ctx: ToolContext, agent: AgentState, text: string): void {
  const address = addresses(ctx.world);
  for (const [parcel, house] of roundIn(text)) {
    const key = `told_${parcel}`;
    if (address[parcel] !== house || ctx.world.flags.get(key) === true) continue;
    ctx.world.flags.set(key, true);
    ctx.credit(agent, `told where ${parcel} goes`);
  }
}

/** The ledger is the dispatcher's: only the dispatcher reads whom each parcel is for. */
export function townFeatures(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue> {
  if (place.id !== "post_office" || viewer.role !== "dispatcher") return {};
  const ledger: Record<string, string> = {};
  for (const [parcel, house] of Object.entries(addresses(world))) ledger[parcel] = `for ${RESIDENTS[house]}`;
  return { ledger };
}
