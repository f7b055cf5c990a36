import type { ToolContext } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { CAIRN_SIGHT } from "./map.js";

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

/**
 * From the top of a cairn the spotter sees over the fog, but as a person does: each sheep within
 * CAIRN_SIGHT cells as so many cells north or south and east or west of the cairn, never as a
 * cell. Which cell that is, the spotter works out.
 */
export function cairnFeatures(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue> {
  if (!place.id.endsWith("_cairn") || viewer.role !== "spotter") return {};
  const seen: string[] = [];
  for (const item of world.items.values()) {
    if (item.kind !== "sheep" || item.location.at !== "cell") continue;
    const dx = item.location.cell.x - place.cell.x;
    const dy = item.location.cell.y - place.cell.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) > CAIRN_SIGHT) continue;
    seen.push(`a sheep ${bearing(dx, dy)}`);
  }
  return { over_the_fog: seen.length > 0 ? seen.join("; ") : "no sheep" };
}

/** "3 north and 2 west", or "4 east": never both zero, as no sheep strays onto a cairn. */
function bearing(dx: number, dy: number): string {
  return [
    dy === 0 ? "" : `${Math.abs(dy)} ${dy < 0 ? "north" : "south"}`,
    dx === 0 ? "" : `${Math.abs(dx)} ${dx < 0 ? "west" : "east"}`,
  ]
    .filter(Boolean)
    .join(" and ");
}
