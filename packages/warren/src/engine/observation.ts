import { cellName } from "./grid.js";
import { type ScenarioDefinition, sightOf } from "./scenario.js";
import type { ToolContext, ToolDefinition } from "./tool.js";
import type {
  Affordance,
  AffordanceMode,
  Observation,
  PlaceView,
  SeenAgent,
  SeenItem,
  ToolReadiness,
  WakeReason,
} from "./types.js";
import type { AgentState, World } from "./world.js";

/**
 * The structured observation of one wake: what the agent is, holds, sees and may do. Sight covers
 * the agent's own cell and cells within sight_radius; at most max_sight agents and items are
 * listed, nearest first.
 */
export function buildObservation(
  ctx: ToolContext,
  scenario: ScenarioDefinition,
  agent: AgentState,
  reason: WakeReason,
  tools: readonly ToolDefinition[],
  mode: AffordanceMode,
): Observation {
  const world = ctx.world;
  const budget = { left: world.budgets.max_sight };
  const key = world.keyOf(agent.cell);
  const place = world.placeAtKey(key);
  // The agent's own view is the one its cell lists: it is told apart by identity, not by comparing ids.
  const self = world.agentView(agent.id);
  // Arrays of just their length (pushing makes room for 16): observations live until the agent's
  // next wake, and what they hold is what the garbage collector copies.
  const hereAgents = othersHere(world.agentViewsAtKey(key), self, budget);
  const hereItems = itemsHere(world.itemViewsAtKey(key), budget);
  // The agent's own view carries its cell's name, made once until it moves.
  const cell = self.cell;
  const placeView: PlaceView = {
    id: place?.id ?? null,
    name: place?.name ?? "open ground",
    cell,
    description: place?.description ?? "",
    items: hereItems,
    agents: hereAgents,
    features: place && scenario.placeFeatures ? scenario.placeFeatures(world, place, agent) : {},
  };
  const nearby = lookAround(world, agent, self, sightOf(scenario, agent.role), budget);
  const readiness = new Array<ToolReadiness>(tools.length);
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const lane = tool.spec.lane;
    const busy = agent.lanes.size > 0 ? agent.lanes.get(lane) : undefined;
    let whyNot: string;
    if (busy) {
      // A busy lane's sentence is the same for each of its tools and every wake until it frees.
      whyNot =
        busy.whyNot ??= `your ${lane} lane is busy with ${busy.action} until t=${busy.until_ms / 1000}s`;
    } else {
      // With every affordance offered, readiness tells only of busy lanes: the world is for the agent to read.
      whyNot = mode === "all" ? "" : tool.unavailable(ctx, agent);
    }
    readiness[i] = whyNot === "" ? readyEntry(tool) : entry(tool, whyNot);
  }
  const observation: Observation = {
    agent: agent.id,
    time: ctx.now,
    reason,
    busy: busyLanes(agent),
    you: {
      id: agent.id,
      name: agent.name,
      role: agent.role,
      cell,
      place: place?.id ?? null,
      inventory: agent.inventory.map((id) => world.itemView(id)),
      budgets_left: {
        messages: world.budgets.max_messages - agent.messagesSent,
        inventory: world.budgets.max_inventory - agent.inventory.length,
      },
    },
    place: placeView,
    nearby,
    // The agent's inbox and outcomes are handed over whole: the caller starts new ones for it.
    messages: agent.inbox,
    outcomes: agent.outcomes,
    objectives: world.objectiveViews(),
    tools: readiness,
  };
  return observation;
}

/**
 * In "ready" mode, each ready tool with its valid parameter choices and ready-made argument
 * suggestions. In "all" mode, every tool whose lane is free, each parameter offering every known
 * target (every place for `dest`, every item in sight or in hand for `item`, every other agent for
 * `to`), and no suggestions: the agent must understand the world to choose. In both, a tool with a
 * parameter that has no choice at all (a walk with nowhere to go, a take with nothing in sight) is
 * not offered.
 */
export function buildAffordances(
  ctx: ToolContext,
  agent: AgentState,
  tools: readonly ToolDefinition[],
  observation: Observation,
  mode: AffordanceMode,
): Affordance[] {
  const out: Affordance[] = [];
  for (const tool of tools) {
    if (!observation.tools.find((t) => t.action === tool.spec.name)?.ready) continue;
    const offer =
      mode === "all"
        ? { params: everyTarget(ctx.world, tool, observation), suggestions: [] }
        : tool.offer(ctx, agent);
    if (Object.values(offer.params).some((param) => param.choices.length === 0)) continue;
    out.push({ action: tool.spec.name, params: offer.params, suggestions: offer.suggestions });
  }
  return out;
}

function everyTarget(world: World, tool: ToolDefinition, o: Observation): Affordance["params"] {
  const properties = (tool.spec.input_schema.properties ?? {}) as Record<string, unknown>;
  const params: Affordance["params"] = {};
  for (const name of Object.keys(properties)) {
    if (name === "dest") params.dest = { choices: [...world.places.keys()] };
    if (name === "to") params.to = { choices: [...world.agents.keys()].filter((id) => id !== o.agent) };
    if (name === "item") {
      const seen = [...o.place.items, ...o.nearby.items, ...o.you.inventory].map((i) => i.id);
      params.item = { choices: [...new Set(seen)] };
    }
  }
  return params;
}

/** Each tool's "ready" entry, the most common one: shared between observations (read-only). */
const readyEntries = new WeakMap<ToolDefinition, ToolReadiness>();

function readyEntry(tool: ToolDefinition): ToolReadiness {
  let ready = readyEntries.get(tool);
  if (!ready) readyEntries.set(tool, (ready = entry(tool, "")));
  return ready;
}

function entry(tool: ToolDefinition, whyNot: string): ToolReadiness {
  return {
    action: tool.spec.name,
    lane: tool.spec.lane,
    durative: tool.spec.durative,
    ready: whyNot === "",
    why_not: whyNot,
  };
}

/** The agent's busy lanes as it sees them (field for field, without the wake token). */
function busyLanes(agent: AgentState): Observation["busy"] {
  const out: Observation["busy"] = new Array(agent.lanes.size);
  let i = 0;
  for (const l of agent.lanes.values()) {
    out[i++] = l.seen ??= {
      lane: l.lane,
      action: l.action,
      args: l.args,
      since_ms: l.since_ms,
      until_ms: l.until_ms,
    };
  }
  return out;
}

/** The agents of `views` but the agent itself, as many as the sight budget allows. */
function othersHere(views: readonly SeenAgent[], self: SeenAgent, budget: { left: number }): SeenAgent[] {
  let others = 0;
  for (let i = 0; i < views.length; i++) if (views[i] !== self) others++;
  const out = new Array<SeenAgent>(Math.max(0, Math.min(others, budget.left)));
  for (let i = 0, n = 0; n < out.length; i++) {
    const view = views[i]!;
    if (view !== self) out[n++] = view;
  }
  budget.left -= out.length;
  return out;
}

/** The items of `views`, as many as the sight budget allows. */
function itemsHere(views: readonly SeenItem[], budget: { left: number }): SeenItem[] {
  const out = views.slice(0, Math.max(0, budget.left));
  budget.left -= out.length;
  return out;
}

/** Adds the agents of `views` but the agent's own (`self`) to `out` while the sight budget lasts. */
function seeAgents(
  views: readonly SeenAgent[],
  self: SeenAgent,
  budget: { left: number },
  out: SeenAgent[],
): void {
  // Indexed rather than for-of: this runs for every cell in sight of every wake.
  for (let i = 0; i < views.length; i++) {
    const view = views[i]!;
    if (view === self) continue;
    if (budget.left <= 0) break;
    budget.left--;
    out.push(view);
  }
}

function seeItems(views: readonly SeenItem[], budget: { left: number }, out: SeenItem[]): void {
  for (let i = 0; i < views.length; i++) {
    if (budget.left <= 0) break;
    budget.left--;
    out.push(views[i]!);
  }
}

/** Cells around the agent within sight_radius (Chebyshev), nearest rings first. */
function lookAround(
  world: World,
  agent: AgentState,
  self: SeenAgent,
  radius: number,
  budget: { left: number },
): Observation["nearby"] {
  const nearby: Observation["nearby"] = { agents: [], items: [], places: [] };
  const space = world.spaces.get(agent.cell.space)!;
  const origin = world.cellKey(space.id, 0, 0);
  for (let ring = 1; ring <= radius; ring++) {
    for (let dy = -ring; dy <= ring; dy++) {
      // The ring's cells only: its top and bottom rows whole, the rows between at both ends.
      const step = dy === -ring || dy === ring ? 1 : 2 * ring;
      for (let dx = -ring; dx <= ring; dx += step) {
        const x = agent.cell.x + dx;
        const y = agent.cell.y + dy;
        if (!space.contains(x, y)) continue;
        const key = origin + y * space.width + x;
        const place = world.placeAtKey(key);
        if (place) nearby.places.push({ id: place.id, name: place.name, cell: cellName(place.cell) });
        seeAgents(world.agentViewsAtKey(key), self, budget, nearby.agents);
        seeItems(world.itemViewsAtKey(key), budget, nearby.items);
      }
    }
  }
  return nearby;
}
