import type { ToolContext } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { rota } from "./map.js";

/**
 * A crate put down at the market is sold: it counts towards both objectives and is gone. Put
 * down anywhere else, its fruit bruises and cannot be sold: the harvest can no longer be whole.
 */
export function reactToDrop(ctx: ToolContext, agent: AgentState, item: Item): void {
  if (item.kind !== "crate") return;
  ctx.world.moveItem(item, { at: "gone" });
  if (ctx.world.placeAt(agent.cell)?.id !== "market") {
    ctx.emit("spoiled", { agent: agent.id, item: item.id });
    ctx.fail("harvest", `${item.id} was put down outside the market and its fruit bruised`);
    return;
  }
  ctx.progress("first_crate", 1);
  ctx.progress("harvest", 1);
}

export function farmFeatures(world: World, place: Place): Record<string, FeatureValue> {
  if (place.id !== "market") return {};
  return { rota: rota(world) };
}
