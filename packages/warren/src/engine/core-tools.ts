import { type Cell, cellName, parseCell } from "./grid.js";
import type { Offer, ToolDefinition } from "./tool.js";
import type { ToolInputSchema } from "./types.js";
import { type AgentState, type Item, sameCell, type World } from "./world.js";

/** The tools every scenario has: walking, taking, dropping and talking. */

const TAKE_MS = 1000;
const DROP_MS = 1000;
const MESSAGE_MS = 1000;
const MAX_MESSAGE_CHARS = 500;

/** take and drop both name one item. */
const ITEM_ARGS: ToolInputSchema = {
  type: "object",
  properties: { item: { type: "string" } },
  required: ["item"],
  additionalProperties: false,
};

function resolveDestination(world: World, dest: string): { cell: Cell; label: string } | undefined {
  const place = world.places.get(dest);
  if (place) return { cell: place.cell, label: place.id };
  const cell = parseCell(dest);
  const space = cell && world.spaces.get(cell.space);
  if (cell && space?.contains(cell.x, cell.y)) return { cell, label: dest };
  return undefined;
}

function stepsBetween(world: World, from: Cell, to: Cell): number | undefined {
  if (from.space !== to.space) return undefined;
  return world.spaces.get(from.space)?.distance(from.x, from.y, to.x, to.y);
}

export const moveTo: ToolDefinition = {
  spec: {
    name: "move_to",
    description: "Walk to a place, however far.",
    lane: "body",
    durative: true,
    input_schema: {
      type: "object",
      properties: { dest: { type: "string" } },
      required: ["dest"],
      additionalProperties: false,
    },
  },
  unavailable(ctx) {
    return ctx.world.places.size === 0 ? "there are no places to go to" : "";
  },
  offer(ctx, agent) {
    const choices: string[] = [];
    for (const place of ctx.world.places.values()) {
      if (sameCell(place.cell, agent.cell)) continue;
      if (stepsBetween(ctx.world, agent.cell, place.cell) !== undefined) choices.push(place.id);
    }
    return { params: { dest: { choices } }, suggestions: choices.slice(0, 3).map((dest) => ({ dest })) };
  },
  begin(ctx, agent, args) {
    const dest = String(args.dest);
    const target = resolveDestination(ctx.world, dest);
    if (!target) {
      const places = [...ctx.world.places.keys()].join(", ");
      return {
        refused: `There is no place called "${dest}".`,
        hint: `Known places: ${places}; or name a cell like "${cellName(agent.cell)}".`,
      };
    }
    if (sameCell(target.cell, agent.cell)) return { refused: `You are already at ${target.label}.` };
    const steps = stepsBetween(ctx.world, agent.cell, target.cell);
    if (steps === undefined) {
      return {
        refused: `No open path leads from ${cellName(agent.cell)} to ${target.label}; something blocks the way, so that place cannot be reached yet.`,
      };
    }
    return {
      durationMs: steps * ctx.msPerCell,
      doneReason: "arrived",
      finish: () => {
        ctx.world.moveAgent(agent, target.cell);
        ctx.emit("arrived", {
          agent: agent.id,
          cell: cellName(target.cell),
          place: placeIdAt(ctx.world, target.cell),
        });
        ctx.react({ kind: "arrived", agent });
        return null;
      },
    };
  },
};

function placeIdAt(world: World, cell: Cell): string | null {
  return world.placeAt(cell)?.id ?? null;
}

/** The roles (or agent ids) an item's `carriable_by` names; any agent may carry it when absent. */
function carriableBy(item: Item): readonly string[] | undefined {
  const roles = item.props.carriable_by;
  return Array.isArray(roles) ? (roles as string[]) : undefined;
}

function takeableHere(world: World, agent: AgentState): Item[] {
  return world
    .itemsAt(agent.cell)
    .map((id) => world.items.get(id)!)
    .filter((item) => mayCarry(item, agent));
}

/** Whether anything here is the agent's to carry (takeableHere's question, with no list made). */
function anyTakeableHere(world: World, agent: AgentState): boolean {
  for (const id of world.itemIdsAt(agent.cell)) if (mayCarry(world.items.get(id)!, agent)) return true;
  return false;
}

function mayCarry(item: Item, agent: AgentState): boolean {
  const who = carriableBy(item);
  return !who || who.includes(agent.role) || who.includes(agent.id);
}

export const take: ToolDefinition = {
  spec: {
    name: "take",
    description: "Pick up an item lying where you stand.",
    lane: "body",
    durative: false,
    input_schema: ITEM_ARGS,
  },
  unavailable(ctx, agent) {
    if (agent.inventory.length >= ctx.world.budgets.max_inventory) return "your hands are full";
    return anyTakeableHere(ctx.world, agent) ? "" : "nothing you can carry lies here";
  },
  offer(ctx, agent) {
    const items = takeableHere(ctx.world, agent).map((i) => i.id);
    return { params: { item: { choices: items } }, suggestions: items.slice(0, 3).map((item) => ({ item })) };
  },
  begin(ctx, agent, args) {
    const id = String(args.item);
    const item = ctx.world.items.get(id);
    if (!item || item.location.at === "gone") return { refused: `There is no item called "${id}".` };
    if (item.location.at === "agent") {
      return item.location.agent === agent.id
        ? { refused: `You already carry ${id}.` }
        : { refused: `${id} is not here: ${item.location.agent} carries it.` };
    }
    if (!sameCell(item.location.cell, agent.cell)) {
      const here = ctx.world.itemsAt(agent.cell);
      return {
        refused: `${id} is not here: you stand at ${cellName(agent.cell)} and it lies elsewhere.`,
        hint: `Items here: ${here.length ? here.join(", ") : "none"}.`,
      };
    }
    const roles = carriableBy(item);
    if (roles && !mayCarry(item, agent)) {
      // A scenario may say in its own words why (sealed, someone else's); weight is the default.
      const note = item.props.carry_note;
      return {
        refused:
          typeof note === "string"
            ? note
            : `${id} is too heavy for a ${agent.role}; only a ${roles.join(" or a ")} can carry it.`,
      };
    }
    const max = ctx.world.budgets.max_inventory;
    if (agent.inventory.length >= max) {
      return {
        refused: `Your inventory is full: you carry ${agent.inventory.length} items, the most you can (max_inventory ${max}).`,
        hint: "Drop something first.",
      };
    }
    ctx.world.moveItem(item, { at: "agent", agent: agent.id });
    ctx.emit("took", { agent: agent.id, item: id });
    ctx.react({ kind: "took", agent, item });
    return { durationMs: TAKE_MS };
  },
};

export const drop: ToolDefinition = {
  spec: {
    name: "drop",
    description: "Put down an item you carry, where you stand.",
    lane: "body",
    durative: false,
    input_schema: ITEM_ARGS,
  },
  unavailable(_ctx, agent) {
    return agent.inventory.length === 0 ? "you carry nothing" : "";
  },
  offer(_ctx, agent) {
    const items = [...agent.inventory];
    return { params: { item: { choices: items } }, suggestions: items.slice(0, 3).map((item) => ({ item })) };
  },
  begin(ctx, agent, args) {
    const id = String(args.item);
    const item = ctx.world.items.get(id);
    if (item?.location.at !== "agent" || item.location.agent !== agent.id) {
      const held = agent.inventory.length ? agent.inventory.join(", ") : "nothing";
      return { refused: `You do not carry ${id}; you carry ${held}.` };
    }
    ctx.world.moveItem(item, { at: "cell", cell: agent.cell });
    ctx.emit("dropped", { agent: agent.id, item: id, cell: cellName(agent.cell) });
    ctx.react({ kind: "dropped", agent, item });
    return { durationMs: DROP_MS };
  },
};

export const message: ToolDefinition = {
  spec: {
    name: "message",
    description: "Say something to another agent, wherever it is; it hears it at once.",
    lane: "voice",
    durative: false,
    input_schema: {
      type: "object",
      properties: {
        to: { type: "string" },
        text: { type: "string", minLength: 1, maxLength: MAX_MESSAGE_CHARS },
      },
      required: ["to", "text"],
      additionalProperties: false,
    },
  },
  unavailable(ctx, agent) {
    if (agent.messagesSent >= ctx.world.budgets.max_messages) return "you have no messages left";
    return ctx.world.agents.size < 2 ? "nobody else is here to hear you" : "";
  },
  offer(ctx, agent): Offer {
    const others = [...ctx.world.agents.keys()].filter((id) => id !== agent.id);
    return {
      params: { to: { choices: others } },
      suggestions: others.slice(0, 3).map((to) => ({ to, text: "Where are you, and what do you need?" })),
    };
  },
  begin(ctx, agent, args) {
    const to = String(args.to);
    const max = ctx.world.budgets.max_messages;
    if (agent.messagesSent >= max) {
      return { refused: `You have sent all ${max} of your messages (max_messages); you cannot send more.` };
    }
    const recipient = ctx.world.agents.get(to);
    if (!recipient) {
      const others = [...ctx.world.agents.keys()].filter((id) => id !== agent.id).join(", ");
      return { refused: `There is no agent called "${to}".`, hint: `Agents you can message: ${others}.` };
    }
    if (recipient === agent) return { refused: "You cannot message yourself." };
    agent.messagesSent++;
    ctx.deliver(agent, recipient, String(args.text));
    return { durationMs: MESSAGE_MS };
  },
};

export const CORE_TOOLS: readonly ToolDefinition[] = [moveTo, take, drop, message];
