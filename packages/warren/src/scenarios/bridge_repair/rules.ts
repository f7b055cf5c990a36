import type { ToolContext, ToolDefinition } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Item, Place, World } from "../../engine/world.js";
import { sameCell } from "../../engine/world.js";
import { SOUND_STACKS, STACKS, spanCell } from "./map.js";

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
      "Fix one section of the bridge's span, using a plank lying at the bridge. Needs the toolbox. A soaked plank splits under load and the section gives way.",
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
        if (!isSound(ctx.world, plank)) {
          ctx.fail("repair", `${plank.id} was soaked: it split under load and the section gave way`);
          return `${plank.id} was soaked through: it split, and the section gave way.`;
        }
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
    if (item.kind === "plank" && isSound(world, item)) ctx.credit(agent, `brought ${item.id} to the bridge`);
    return;
  }
  if (item.kind === "medkit" && place?.id === "clinic") {
    world.moveItem(item, { at: "gone" });
    ctx.progress("resupply", 1);
  }
}

/** Whether a plank stayed dry in the storm, and so can bear a section of the span. */
export function isSound(world: World, item: Item): boolean {
  return world.flags.get(`sound_${item.id}`) === true;
}

/**
 * The stacks a message names as holding the sound planks, when the whole message is the lookout's
 * word as the briefing gives it: "Sound planks: sawmill, barn." Any other text names none.
 */
export function soundStacksIn(text: string): string[] {
  const m = /^sound planks: (\w+), (\w+)\.?$/i.exec(text.trim());
  const named = m ? [m[1]!.toLowerCase(), m[2]!.toLowerCase()] : [];
  const stacks = STACKS.filter((s) => named.includes(s));
  return stacks.length === SOUND_STACKS ? stacks : [];
}

/** The lookout's word credits its sender once for each stack it rightly names as sound. */
export function reactToMessage(ctx: ToolContext, agent: AgentState, text: string): void {
  const world = ctx.world;
  for (const stack of soundStacksIn(text)) {
    const key = `spotted_${stack}`;
    const cell = world.places.get(stack)!.cell;
    const sound = world.itemsAt(cell).some((id) => isSound(world, world.items.get(id)!));
    if (!sound || world.flags.get(key) === true) continue;
    world.flags.set(key, true);
    ctx.credit(agent, `told where a sound plank lies (${stack})`);
  }
}

/** The bridge shows how far its repair has come; the tower shows the lookout its storm log. */
export function bridgeFeatures(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue> {
  if (place.id === "tower" && viewer.role === "lookout")
    return { storm_log: String(world.flags.get("storm_log")) };
  if (place.id !== "bridge") return {};
  const fixed = Number(world.flags.get("sections_fixed") ?? 0);
  return {
    span: fixed >= REPAIRS_NEEDED ? "repaired" : `broken (${fixed}/${REPAIRS_NEEDED} sections fixed)`,
  };
}
