import type { ToolContext } from "../../engine/tool.js";
import type { AgentState, Item } from "../../engine/world.js";

/** A crate put down at the market is sold: it counts towards both objectives and is gone. */
export function sellAtMarket(ctx: ToolContext, agent: AgentState, item: Item): void {
  if (item.kind !== "crate" || ctx.world.placeAt(agent.cell)?.id !== "market") return;
  ctx.world.moveItem(item, { at: "gone" });
  ctx.progress("first_crate", 1);
  ctx.progress("harvest", 1);
}
