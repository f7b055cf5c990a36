import type { ToolContext, ToolDefinition } from "../../engine/tool.js";
import type { AgentState, Place, World } from "../../engine/world.js";
import { sameCell } from "../../engine/world.js";
import { spanCell } from "./map.js";

const REPAIR_MS = 5000;
export const REPAIRS_NEEDED = 2;

function planksAtBridge(world: World): string[] {
  const bridge = world.places.get("bridge")!;
  return world.itemsAt(bridge.cell).filter((id) => world.items.get(id)!.kind === "plank");
}

/** The engineer's tool: fix one section of the span with a plank lying at the bridge. */
export const repair: ToolDefinition = {
  spec: {
    name: "repair",
    description:
      "Fix one section of the bridge's span, using a plank lying at the bridge. Needs the toolbox.",
    lane: "body",
    durative: true,
    input_schema: { type: "object", properties: {}, additionalProperties: false },
  },
  roles: ["engineer"],
  unavailable(ctx, agent) {
    return repairProblem(ctx, agent) ?? "";
  },
  offer() {
    return { params: {}, suggestions: [{}] };
  },
  begin(ctx, agent) {
    const why = repairProblem(ctx, agent);
    if (why) return { refused: why };
    // The plank is used up as the work starts, so it cannot be taken away mid-repair.
    const plank = ctx.world.items.get(planksAtBridge(ctx.world)[0]!)!;
    ctx.world.moveItem(plank, { at: "gone" });
    return {
      durationMs: REPAIR_MS,
      finish: () => {
        ctx.progress("repair", 1);
        const sections = Number(ctx.world.flags.get("sections_fixed") ?? 0) + 1;
        ctx.world.flags.set("sections_fixed", sections);
        if (sections >= REPAIRS_NEEDED) {
          const span = spanCell(ctx.world);
          ctx.world.spaces.get("valley")!.setBlocked(span.x, span.y, false);
          ctx.emit("bridge_opened", { cell: `valley:${span.x},${span.y}` });
        }
        return null;
      },
    };
  },
};

function repairProblem(ctx: ToolContext, agent: AgentState): string | null {
  const world = ctx.world;
  const bridge = world.places.get("bridge")!;
  if (Number(world.flags.get("sections_fixed") ?? 0) >= REPAIRS_NEEDED)
    return "The bridge is already fully repaired.";
  if (!sameCell(agent.cell, bridge.cell)) {
    return `You must stand at the bridge (valley:${bridge.cell.x},${bridge.cell.y}) to repair it.`;
  }
  if (!agent.inventory.some((id) => world.items.get(id)!.kind === "toolbox")) {
    return "You need the toolbox in hand to repair; it was left in the workshop.";
  }
  if (planksAtBridge(world).length === 0) {
    return "There is no plank lying at the bridge; planks are too heavy for you, so a courier must bring one.";
  }
  return null;
}

/** A medkit put down in the clinic is delivered: it counts and is used up. */
export function reactToDrop(ctx: ToolContext, itemId: string, place: Place | undefined): void {
  const item = ctx.world.items.get(itemId)!;
  if (item.kind !== "medkit" || place?.id !== "clinic") return;
  ctx.world.moveItem(item, { at: "gone" });
  ctx.progress("resupply", 1);
}

export function bridgeFeatures(world: World, place: Place): Record<string, unknown> {
  if (place.id !== "bridge") return {};
  const fixed = Number(world.flags.get("sections_fixed") ?? 0);
  return {
    span: fixed >= REPAIRS_NEEDED ? "repaired" : `broken (${fixed}/${REPAIRS_NEEDED} sections fixed)`,
  };
}
