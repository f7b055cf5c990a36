import type { ToolContext, ToolDefinition } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { sameCell } from "../../engine/world.js";
import { STACKS, spanCell } from "./map.js";

const REPAIR_MS = 5000;
export const REPAIRS_NEEDED = 2;

function spanBroken(world: World): boolean {
  return Number(world.flags.get("sections_fixed") ?? 0) < REPAIRS_NEEDED;
}

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
    return repairProblem(ctx, agent)?.refused ?? "";
  },
  offer() {
    return { params: {}, suggestions: [{}] };
  },
  begin(ctx, agent) {
    const why = repairProblem(ctx, agent);
    if (why) return why;
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

function repairProblem(ctx: ToolContext, agent: AgentState): { refused: string; hint?: string } | null {
  const world = ctx.world;
  const bridge = world.places.get("bridge")!;
  if (!spanBroken(world)) return { refused: "The bridge is already fully repaired." };
  if (!sameCell(agent.cell, bridge.cell)) {
    return {
      refused: `You must stand at the bridge (valley:${bridge.cell.x},${bridge.cell.y}) to repair it.`,
    };
  }
  if (!agent.inventory.some((id) => world.items.get(id)!.kind === "toolbox")) {
    return { refused: "You need the toolbox in hand to repair; it was left in the workshop." };
  }
  if (planksAtBridge(world).length === 0) {
    return {
      refused: "There is no plank lying at the bridge.",
      hint: "Planks are too heavy for you, so a courier must bring one.",
    };
  }
  return null;
}

/**
 * What a put-down item does. At the broken bridge the river takes what nobody holds: a toolbox
 * falls between the boards, a plank is swept away unless the engineer stands there to take it in
 * hand. Either loss makes the repair impossible. A medkit put down in the clinic is delivered.
 */
export function reactToDrop(ctx: ToolContext, agent: AgentState, item: Item, place: Place | undefined): void {
  const world = ctx.world;
  if (place?.id === "bridge" && spanBroken(world)) {
    const engineerThere = world.agentsAt(place.cell).some((id) => world.agents.get(id)!.role === "engineer");
    if (item.kind === "toolbox" || (item.kind === "plank" && !engineerThere)) {
      world.moveItem(item, { at: "gone" });
      ctx.emit("lost", { agent: agent.id, item: item.id, where: "river" });
      ctx.fail("repair", `${item.id} was lost in the river at the broken bridge`);
      return;
    }
    if (item.kind === "plank") ctx.credit(agent, `brought ${item.id} to the bridge`);
    return;
  }
  if (item.kind === "medkit" && place?.id === "clinic") {
    world.moveItem(item, { at: "gone" });
    ctx.progress("resupply", 1);
  }
}

/** A message naming a stack that holds a plank credits its sender once per stack. */
export function reactToMessage(ctx: ToolContext, agent: AgentState, text: string): void {
  const world = ctx.world;
  for (const stack of STACKS) {
    if (!new RegExp(`\\b${stack}\\b`, "i").test(text)) continue;
    const key = `spotted_${stack}`;
    if (world.flags.get(key) === true) continue;
    const cell = world.places.get(stack)!.cell;
    if (!world.itemsAt(cell).some((id) => world.items.get(id)!.kind === "plank")) continue;
    world.flags.set(key, true);
    ctx.credit(agent, `told where a plank lies (${stack})`);
  }
}

export function bridgeFeatures(world: World, place: Place): Record<string, FeatureValue> {
  if (place.id !== "bridge") return {};
  const fixed = Number(world.flags.get("sections_fixed") ?? 0);
  return {
    span: fixed >= REPAIRS_NEEDED ? "repaired" : `broken (${fixed}/${REPAIRS_NEEDED} sections fixed)`,
  };
}
