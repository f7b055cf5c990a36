import { type Cell, cellName, Space } from "./grid.js";
import type {
  Budgets,
  BusyLane,
  ObjectiveStatus,
  ObjectiveView,
  OwnOutcome,
  ReceivedMessage,
  SeenAgent,
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
  lanes: Map<string, BusyLane & { token: number }>;
  inbox: ReceivedMessage[];
  outcomes: OwnOutcome[];
  /** Bumped on every wake; timers carrying an older token are stale. */
  wakeToken: number;
  /** Observations issued so far; the next one is `<id>#<seq>`. */
  seq: number;
  /** Refusals in a row: each one makes the agent wait longer before it wakes again. */
  refusalStreak: number;
}

export interface ObjectiveState {
  id: string;
  description: string;
  deadlineMs: number | null;
  target: number;
  current: number;
  status: ObjectiveStatus;
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
  // Indexes by a number per cell (the space's offset plus y * width + x): cheaper than names.
  private readonly placesByCell = new Map<number, Place>();
  private readonly agentsByCell = new Map<number, Set<string>>();
  private readonly itemsByCell = new Map<number, Set<string>>();
  private readonly spaceOffsets = new Map<string, number>();
  private nextOffset = 0;
  private objectiveCache: ObjectiveView[] | undefined;
  /** How each agent is seen by others, until it moves: shared between observations (read-only). */
  private readonly agentViews = new Map<string, SeenAgent>();

  constructor(readonly budgets: Budgets) {}

  addSpace(id: string, width: number, height: number): Space {
    const space = new Space(id, width, height);
    this.spaces.set(id, space);
    this.spaceOffsets.set(id, this.nextOffset);
    this.nextOffset += width * height;
    return space;
  }

  /** Adds a place on one cell of a space. */
  addPlaceAt(space: string, id: string, name: string, x: number, y: number, description: string): void {
    this.addPlace({ id, name, description, cell: { space, x, y } });
  }

  addPlace(place: Place): void {
    this.places.set(place.id, place);
    this.placesByCell.set(this.key(place.cell), place);
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
    indexAdd(this.agentsByCell, this.key(cell), id);
    return agent;
  }

  addObjective(id: string, description: string, target: number, deadlineMs: number | null): void {
    this.objectives.set(id, { id, description, deadlineMs, target, current: 0, status: "pending" });
  }

  moveAgent(agent: AgentState, cell: Cell): void {
    indexRemove(this.agentsByCell, this.key(agent.cell), agent.id);
    agent.cell = cell;
    this.agentViews.delete(agent.id);
    indexAdd(this.agentsByCell, this.key(cell), agent.id);
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

  moveItem(item: Item, location: ItemLocation): void {
    const old = item.location;
    if (old.at === "cell") indexRemove(this.itemsByCell, this.key(old.cell), item.id);
    if (old.at === "agent") {
      const holder = this.agents.get(old.agent);
      if (holder) holder.inventory = holder.inventory.filter((id) => id !== item.id);
    }
    item.location = location;
    if (location.at === "cell") indexAdd(this.itemsByCell, this.key(location.cell), item.id);
    if (location.at === "agent") this.agents.get(location.agent)?.inventory.push(item.id);
  }

  /** The ids of agents on a cell, without copying (do not change it). */
  agentIdsAt(cell: Cell): ReadonlySet<string> {
    return this.agentsByCell.get(this.key(cell)) ?? NONE;
  }

  /** The ids of items on a cell, without copying (do not change it). */
  itemIdsAt(cell: Cell): ReadonlySet<string> {
    return this.itemsByCell.get(this.key(cell)) ?? NONE;
  }

  /**
   * The number that stands for cell (x, y) of a space in the by-cell lookups below: the space's
   * offset plus y * width + x (for scanning the cells around one without building each cell).
   */
  cellKey(space: string, x: number, y: number): number {
    return this.spaceOffsets.get(space)! + y * this.spaces.get(space)!.width + x;
  }

  agentIdsAtKey(key: number): ReadonlySet<string> {
    return this.agentsByCell.get(key) ?? NONE;
  }

  itemIdsAtKey(key: number): ReadonlySet<string> {
    return this.itemsByCell.get(key) ?? NONE;
  }

  placeAtKey(key: number): Place | undefined {
    return this.placesByCell.get(key);
  }

  agentsAt(cell: Cell): string[] {
    // Insertion order: fixed by the run's history, so as deterministic as sorting and cheaper.
    return [...(this.agentsByCell.get(this.key(cell)) ?? [])];
  }

  itemsAt(cell: Cell): string[] {
    return [...(this.itemsByCell.get(this.key(cell)) ?? [])];
  }

  placeAt(cell: Cell): Place | undefined {
    return this.placesByCell.get(this.key(cell));
  }

  private key(cell: Cell): number {
    const space = this.spaces.get(cell.space)!;
    return this.spaceOffsets.get(cell.space)! + cell.y * space.width + cell.x;
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

export function sameCell(a: Cell, b: Cell): boolean {
  return a.space === b.space && a.x === b.x && a.y === b.y;
}

function indexAdd(index: Map<number, Set<string>>, key: number, id: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(id);
}

function indexRemove(index: Map<number, Set<string>>, key: number, id: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) index.delete(key);
}
