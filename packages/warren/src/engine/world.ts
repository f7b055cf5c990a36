import { type Cell, cellName, Space } from "./grid.js";
import type {
  Budgets,
  BusyLane,
  ObjectiveStatus,
  ObjectiveView,
  OwnOutcome,
  ReceivedMessage,
  SeenAgent,
  SeenItem,
} from "./types.js";

export interface Place {
  id: string;
  name: string;
  description: string;
  cell: Cell;
}

export type ItemLocation = { at: "cell"; cell: Cell } | { at: "agent"; agent: string } | { at: "gone" };

export interface Item {
  id: string;
  name: string;
  kind: string;
  /** Scenario facts: a heavy plank, a note's text. */
  props: Record<string, unknown>;
  location: ItemLocation;
}

export interface AgentState {
  id: string;
  name: string;
  role: string;
  cell: Cell;
  inventory: string[];
  messagesSent: number;
  lanes: Map<string, LaneState>;
  inbox: ReceivedMessage[];
  outcomes: OwnOutcome[];
  /** Bumped on every wake; timers carrying an older token are stale. */
  wakeToken: number;
  /** Observations issued so far; the next one is `<id>#<seq>`. */
  seq: number;
  /** Refusals in a row: each one makes the agent wait longer before it wakes again. */
  refusalStreak: number;
}

/** A lane an action holds. */
export interface LaneState extends BusyLane {
  token: number;
  /** The lane as the agent's observations show it, made on first need (shared between them: read-only). */
  seen?: BusyLane;
  /** Why the lane's tools are not ready, written on first need. */
  whyNot?: string;
}

export interface ObjectiveState {
  id: string;
  description: string;
  deadlineMs: number | null;
  target: number;
  current: number;
  status: ObjectiveStatus;
}

/** What lies on one cell; made when something first comes to it. */
interface CellContents {
  place: Place | undefined;
  agents: Set<string>;
  items: Set<string>;
  /**
   * The agents and items as seen, in the order they came: kept up to date as they come and go,
   * so an observation copies them rather than looking each one up. The views are shared between
   * observations (read-only); the arrays are not handed out.
   */
  agentViews: SeenAgent[];
  itemViews: SeenItem[];
}

/** The mutable state of one run's world. Iteration orders are the insertion orders of setup. */
export class World {
  readonly spaces = new Map<string, Space>();
  readonly places = new Map<string, Place>();
  readonly items = new Map<string, Item>();
  readonly agents = new Map<string, AgentState>();
  readonly objectives = new Map<string, ObjectiveState>();
  /** Scenario state beyond the map: whether the bridge stands, the gate's code. */
  readonly flags = new Map<string, string | number | boolean>();
  /**
   * What lies on each cell, by a number per cell (the space's offset plus y * width + x), one slot
   * for every cell of every space: an array read is cheaper than a name's or a map's lookup.
   */
  private readonly cells: (CellContents | undefined)[] = [];
  /** Each space's first cell number and width, for a cell's number in one lookup. */
  private readonly spaceKeys = new Map<string, { offset: number; width: number }>();
  private nextOffset = 0;
  private objectiveCache: ObjectiveView[] | undefined;
  /** How each agent is seen by others, until it moves: shared between observations (read-only). */
  private readonly agentViews = new Map<string, SeenAgent>();

  constructor(readonly budgets: Budgets) {}

  addSpace(id: string, width: number, height: number): Space {
    const space = new Space(id, width, height);
    this.spaces.set(id, space);
    this.spaceKeys.set(id, { offset: this.nextOffset, width });
    this.nextOffset += width * height;
    // Filled, not left with holes, so the array stays dense.
    for (let i = 0; i < width * height; i++) this.cells.push(undefined);
    return space;
  }

  /** Adds a place on one cell of a space. */
  addPlaceAt(space: string, id: string, name: string, x: number, y: number, description: string): void {
    this.addPlace({ id, name, description, cell: { space, x, y } });
  }

  addPlace(place: Place): void {
    this.places.set(place.id, place);
    this.contentsAt(this.keyOf(place.cell)).place = place;
  }

  addItem(item: Omit<Item, "location">, location: ItemLocation): Item {
    const full: Item = { ...item, location: { at: "gone" } };
    this.items.set(full.id, full);
    this.moveItem(full, location);
    return full;
  }

  addAgent(id: string, name: string, role: string, cell: Cell): AgentState {
    const agent: AgentState = {
      id,
      name,
      role,
      cell,
      inventory: [],
      messagesSent: 0,
      lanes: new Map(),
      inbox: [],
      outcomes: [],
      wakeToken: 0,
      seq: 0,
      refusalStreak: 0,
    };
    this.agents.set(id, agent);
    this.addAgentAt(this.keyOf(cell), id);
    return agent;
  }

  addObjective(id: string, description: string, target: number, deadlineMs: number | null): void {
    this.objectives.set(id, { id, description, deadlineMs, target, current: 0, status: "pending" });
  }

  moveAgent(agent: AgentState, cell: Cell): void {
    const from = this.contentsAt(this.keyOf(agent.cell));
    if (from.agents.delete(agent.id)) dropView(from.agentViews, agent.id);
    agent.cell = cell;
    this.agentViews.delete(agent.id);
    this.addAgentAt(this.keyOf(cell), agent.id);
  }

  private addAgentAt(key: number, id: string): void {
    const to = this.contentsAt(key);
    if (to.agents.has(id)) return;
    to.agents.add(id);
    to.agentViews.push(this.agentView(id));
  }

  private contentsAt(key: number): CellContents {
    let contents = this.cells[key];
    if (!contents) {
      contents = {
        place: undefined,
        agents: new Set(),
        items: new Set(),
        agentViews: [],
        itemViews: [],
      };
      this.cells[key] = contents;
    }
    return contents;
  }

  /** An agent as others see it: the same object for every observation until the agent moves. */
  agentView(id: string): SeenAgent {
    let view = this.agentViews.get(id);
    if (!view) {
      const a = this.agents.get(id)!;
      view = { id: a.id, name: a.name, role: a.role, cell: cellName(a.cell) };
      this.agentViews.set(id, view);
    }
    return view;
  }

  /** An item as an agent sees it: where it lies, or where its holder stands. */
  itemView(id: string): SeenItem {
    const item = this.items.get(id)!;
    const where = item.location;
    const cell =
      where.at === "cell"
        ? cellName(where.cell)
        : where.at === "agent"
          ? cellName(this.agents.get(where.agent)!.cell)
          : "";
    return { id: item.id, name: item.name, kind: item.kind, cell };
  }

  moveItem(item: Item, location: ItemLocation): void {
    const old = item.location;
    if (old.at === "cell") {
      const from = this.contentsAt(this.keyOf(old.cell));
      if (from.items.delete(item.id)) dropView(from.itemViews, item.id);
    }
    if (old.at === "agent") {
      const holder = this.agents.get(old.agent);
      if (holder) holder.inventory = holder.inventory.filter((id) => id !== item.id);
    }
    item.location = location;
    if (location.at === "cell") {
      const to = this.contentsAt(this.keyOf(location.cell));
      if (!to.items.has(item.id)) {
        to.items.add(item.id);
        to.itemViews.push(this.itemView(item.id));
      }
    }
    if (location.at === "agent") this.agents.get(location.agent)?.inventory.push(item.id);
  }

  /** The ids of items on a cell, without copying (do not change it). */
  itemIdsAt(cell: Cell): ReadonlySet<string> {
    return this.cells[this.keyOf(cell)]?.items ?? NONE;
  }

  /**
   * The number that stands for cell (x, y) of a space in the by-cell lookups below: the space's
   * offset plus y * width + x (for scanning the cells around one without building each cell).
   */
  cellKey(space: string, x: number, y: number): number {
    const { offset, width } = this.spaceKeys.get(space)!;
    return offset + y * width + x;
  }

  /** The agents on a cell as others see them, in the order they came (do not change it, and copy what you keep). */
  agentViewsAtKey(key: number): readonly SeenAgent[] {
    return this.cells[key]?.agentViews ?? NO_VIEWS;
  }

  /** The items on a cell as agents see them, in the order they came (do not change it, and copy what you keep). */
  itemViewsAtKey(key: number): readonly SeenItem[] {
    return this.cells[key]?.itemViews ?? NO_VIEWS;
  }

  placeAtKey(key: number): Place | undefined {
    return this.cells[key]?.place;
  }

  agentsAt(cell: Cell): string[] {
    // Insertion order: fixed by the run's history, so as deterministic as sorting and cheaper.
    return [...(this.cells[this.keyOf(cell)]?.agents ?? [])];
  }

  itemsAt(cell: Cell): string[] {
    return [...(this.cells[this.keyOf(cell)]?.items ?? [])];
  }

  placeAt(cell: Cell): Place | undefined {
    return this.cells[this.keyOf(cell)]?.place;
  }

  /** The number of a cell in the by-cell lookups (see cellKey). */
  keyOf(cell: Cell): number {
    const { offset, width } = this.spaceKeys.get(cell.space)!;
    return offset + cell.y * width + cell.x;
  }

  /**
   * The objectives as agents see them. Shared between observations until an objective changes
   * (call `objectivesChanged()`), since they change far more rarely than agents wake: treat them
   * as read-only.
   */
  objectiveViews(): ObjectiveView[] {
    this.objectiveCache ??= this.buildObjectiveViews();
    return this.objectiveCache;
  }

  objectivesChanged(): void {
    this.objectiveCache = undefined;
  }

  private buildObjectiveViews(): ObjectiveView[] {
    return [...this.objectives.values()].map((o) => ({
      id: o.id,
      description: o.description,
      status: o.status,
      deadline_ms: o.deadlineMs,
      progress: { current: o.current, target: o.target },
    }));
  }
}

const NONE: ReadonlySet<string> = new Set();
const NO_VIEWS: readonly never[] = [];

function dropView(views: { id: string }[], id: string): void {
  const at = views.findIndex((v) => v.id === id);
  if (at >= 0) views.splice(at, 1);
}

export function sameCell(a: Cell, b: Cell): boolean {
  return a.space === b.space && a.x === b.x && a.y === b.y;
}
