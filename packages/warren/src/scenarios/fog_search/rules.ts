import type { ToolContext } from "../../engine/tool.js";
import type { AgentState, Item } from "../../engine/world.js";

/** A sheep put down in the pen is safe; anywhere else it bolts into the fog and is lost for good. */
export function reactToDrop(ctx: ToolContext, agent: AgentState, item: Item): void {
  if (item.kind !== "sheep") return;
  ctx.world.moveItem(item, { at: "gone" });
  if (ctx.world.placeAt(agent.cell)?.id !== "pen") {
    ctx.emit("bolted", { agent: agent.id, item: item.id });
    ctx.fail("gather", `${item.id} was put down outside the pen and bolted into the fog`);
    return;
  }
  ctx.progress("gather", 1);
}

/** A message naming a sheep's true cell credits its sender, once per sheep. */
export function creditSightings(ctx: ToolContext, agent: AgentState, text: string): void {
  for (const item of ctx.world.items.values()) {
    if (item.kind !== "sheep" || item.location.at !== "cell") continue;
    const key = `told_${item.id}`;
    const cell = `moor:${item.location.cell.x},${item.location.cell.y}`;
    if (ctx.world.flags.get(key) === true || !text.includes(cell)) continue;
    ctx.world.flags.set(key, true);
    ctx.credit(agent, `told where ${item.id} is`);
  }
}
