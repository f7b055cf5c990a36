/**
 * The run as the viewer knows it: the scene at t=0, moved on by the run's events in cursor order.
 * Pure state, no DOM: the page draws it, and Node tests run it as it is.
 */
import type { EventOf, RunEvent } from "../../engine/events.js";
import { type Cell, parseCell } from "../../engine/grid.js";
import {
  type BusyLane,
  type Controller,
  hasEnded,
  type Lane,
  type ObjectiveView,
  type Receipt,
  type RunStatus,
  type WakeReason,
} from "../../engine/types.js";
import type { Scene, SceneItemLocation, WorldChange } from "../viewer-documents.js";

/** How many events the model keeps for the log and for replay (older ones go, a tenth at a time). */
const KEEP_EVENTS = 200_000;

export interface ModelSpace {
  id: string;
  width: number;
  height: number;
  /** 1 for a blocked cell, row by row. */
  blocked: Uint8Array;
}

export type ModelPlace = Scene["places"][number] & { cellAt: Cell | undefined };
export type ModelItem = Scene["items"][number] & { cellAt: Cell | undefined };

/** A walk under way, from cell to cell over sim time. */
export interface Move {
  from: Cell;
  to: Cell;
  since: number;
  until: number;
}

/** What became of the agent's latest decision, as far as the events tell. */
export interface AgentCommand {
  observation_id: string;
  text: string;
  expired: boolean;
  outcome: "pending" | "accepted" | "rejected" | "done" | "failed";
  /** Why it was refused. */
  reason: string;
  at: number;
}

/** The latest receipt of a remote agent's command, or of its deadline passing. */
export type AgentReceipt = Pick<Receipt, "observation_id" | "status" | "detail"> & {
  command_id: string | null;
};

export interface ModelAgent {
  id: string;
  name: string;
  role: string;
  controller: Controller;
  cell: string;
  cellAt: Cell | undefined;
  move: Move | null;
  lanes: Map<Lane, BusyLane>;
  inventory: string[];
  observationId: string | null;
  wakeReason: WakeReason | null;
  command: AgentCommand | null;
  receipt: AgentReceipt | null;
  /** The cursor of the event that last changed the agent: its card is redrawn only then. */
  touched: number;
  /** Who holds a remote agent's lease, known only while a served run is watched: null when free. */
  holder?: string | null;
}

export interface RunModelOptions {
  keepEvents?: number;
  /** The world's changes by cursor from the run's record (what the events do not say). */
  changes?: WorldChange[];
}

/** An item's cell, parsed, when it lies on one. */
function cellOf(location: SceneItemLocation): Cell | undefined {
  return location.at === "cell" ? parseCell(location.cell) : undefined;
}

function describeDecision(d: EventOf<"decision">["data"]): string {
  if (d.action !== undefined) {
    const args = d.args && Object.keys(d.args).length ? ` ${JSON.stringify(d.args)}` : "";
    return `${d.action}${args}`;
  }
  if (d.sleep_ms !== undefined) return `sleep ${d.sleep_ms / 1000} s`;
  return "noop";
}

export class RunModel {
  readonly scene: Scene;
  readonly keepEvents: number;
  readonly changes: Map<number, WorldChange>;
  cursor = 0;
  /** Events that skipped cursors (should stay 0: the stream has no gaps). */
  gaps = 0;
  /** Events seen again at or below the cursor, ignored (should stay 0). */
  duplicates = 0;
  simTime = 0;
  status: RunStatus = "created";
  statusReason = "";
  events: RunEvent[] = [];
  firstKept = 1;
  readonly spaces: Map<string, ModelSpace>;
  readonly places: Map<string, ModelPlace>;
  readonly items: Map<string, ModelItem>;
  readonly agents: Map<string, ModelAgent>;
  readonly objectives: Map<string, ObjectiveView>;
  lastEvent: RunEvent | null = null;
  /** Where each item was taken, by the took event's cursor: the event names no cell. */
  readonly tookAt = new Map<number, string>();
  /** Bumped when a wall opens, so the map redraws its walls. */
  wallsVersion = 0;
  /** Bumped when an item moves, so the map redraws. */
  itemsVersion = 0;
  /** Bumped when a place's features change, so the places list is redrawn. */
  featuresVersion = 0;
  /** Bumped on every change, so views redraw only what moved. */
  version = 0;

  /** Without the record's `changes`, a live page sets the world with `setWorld`. */
  constructor(scene: Scene, { keepEvents = KEEP_EVENTS, changes = [] }: RunModelOptions = {}) {
    this.scene = scene;
    this.keepEvents = keepEvents;
    this.changes = new Map(changes.map((c) => [c.cursor, c]));
    this.spaces = new Map(
      scene.spaces.map((s) => {
        const blocked = new Uint8Array(s.width * s.height);
        s.rows.forEach((row, y) => {
          for (let x = 0; x < s.width; x++) if (row[x] === "#") blocked[y * s.width + x] = 1;
        });
        return [s.id, { id: s.id, width: s.width, height: s.height, blocked }];
      }),
    );
    this.places = new Map(scene.places.map((p) => [p.id, { ...p, cellAt: parseCell(p.cell) }]));
    this.items = new Map(
      scene.items.map((i) => [i.id, { ...i, location: { ...i.location }, cellAt: cellOf(i.location) }]),
    );
    this.agents = new Map(
      scene.agents.map((a) => [
        a.id,
        {
          id: a.id,
          name: a.name,
          role: a.role,
          controller: a.controller,
          cell: a.cell,
          cellAt: parseCell(a.cell),
          move: null,
          lanes: new Map(),
          inventory: [],
          observationId: null,
          wakeReason: null,
          command: null,
          receipt: null,
          touched: 0,
        },
      ]),
    );
    for (const item of this.items.values()) {
      if (item.location.at === "agent") this.agents.get(item.location.agent)?.inventory.push(item.id);
    }
    this.objectives = new Map(scene.objectives.map((o) => [o.id, { ...o, progress: { ...o.progress } }]));
  }

  /**
   * Applies the next event. One at or below the cursor is a duplicate and ignored; one past
   * cursor + 1 is a gap, counted (and applied: the view goes on, the count shows the fault).
   * Returns whether it was applied.
   */
  apply(event: RunEvent): boolean {
    if (event.cursor <= this.cursor) {
      this.duplicates++;
      return false;
    }
    if (event.cursor !== this.cursor + 1) this.gaps++;
    this.cursor = event.cursor;
    if (event.sim_time_ms > this.simTime) this.simTime = event.sim_time_ms;
    this.events.push(event);
    if (this.events.length > this.keepEvents * 1.1) {
      this.events.splice(0, this.events.length - this.keepEvents);
      this.firstKept = this.events[0]!.cursor;
    }
    this.change(event);
    const change = this.changes.get(event.cursor);
    if (change) this.setWorld(change);
    this.lastEvent = event;
    this.version++;
    return true;
  }

  private change(event: RunEvent): void {
    const agent = event.data.agent === undefined ? undefined : this.agents.get(event.data.agent);
    if (agent) agent.touched = event.cursor;
    switch (event.kind) {
      case "status":
        this.status = event.data.status;
        this.statusReason = event.data.reason ?? "";
        return;
      case "run_ended":
        for (const o of event.data.objectives) this.objectives.set(o.id, o);
        if (this.status === "running") this.statusReason = event.data.reason;
        return;
      case "wake":
        if (agent) {
          agent.observationId = event.data.observation_id;
          agent.wakeReason = event.data.reason;
        }
        return;
      case "verdict":
        if (agent) {
          const { observation_id, command_id, status, detail } = event.data;
          agent.receipt = { observation_id, command_id, status, detail };
        }
        return;
      case "expired":
        if (agent) {
          agent.receipt = {
            observation_id: event.data.observation_id,
            command_id: null,
            status: "expired",
            detail: "its decision deadline passed: a noop was recorded",
          };
        }
        return;
      case "decision":
        if (agent) this.decided(agent, event);
        return;
      case "action_started":
        if (agent) this.started(agent, event);
        return;
      case "action_ended":
        if (agent) {
          const { action, result } = event.data;
          for (const [lane, busy] of agent.lanes) if (busy.action === action) agent.lanes.delete(lane);
          if (action === "move_to") agent.move = null;
          if (agent.command?.text.startsWith(action)) agent.command.outcome = result;
        }
        return;
      case "arrived":
        if (agent) {
          agent.cell = event.data.cell;
          agent.cellAt = parseCell(event.data.cell);
          agent.move = null;
        }
        return;
      case "took":
        if (agent) this.tookAt.set(event.cursor, agent.cell);
        this.moveItem(event.data.item, { at: "agent", agent: event.data.agent });
        return;
      case "dropped":
        this.moveItem(event.data.item, { at: "cell", cell: event.data.cell });
        return;
      case "objective": {
        const d = event.data;
        const was = this.objectives.get(d.id);
        // A scenario that counts a dropped item uses it up at once (a medkit at the clinic, a crate sold).
        const last = this.lastEvent;
        if (last?.kind === "dropped" && last.sim_time_ms === event.sim_time_ms) {
          if (d.current > (was?.progress.current ?? 0)) this.moveItem(last.data.item, { at: "gone" });
        }
        this.objectives.set(d.id, {
          description: "",
          deadline_ms: null,
          ...was,
          id: d.id,
          status: d.status,
          progress: { current: d.current, target: d.target },
        });
        return;
      }
      case "bridge_opened":
        this.setOpen(event.data.cell);
        return;
      default:
        return;
    }
  }

  private decided(agent: ModelAgent, event: EventOf<"decision">): void {
    // A remote agent's accepted command has no verdict event: its decision carries the receipt.
    if (event.receipt) {
      const { observation_id, command_id, status, detail } = event.receipt;
      agent.receipt = { observation_id, command_id, status, detail };
    }
    const d = event.data;
    // A refused action's decision event carries the refusal.
    const refused = d.refused !== undefined;
    agent.command = {
      observation_id: d.observation_id,
      text: describeDecision(d),
      expired: d.expired === true,
      outcome: refused ? "rejected" : d.action !== undefined ? "pending" : "accepted",
      reason: d.refused ?? "",
      at: event.sim_time_ms,
    };
  }

  private started(agent: ModelAgent, event: EventOf<"action_started">): void {
    const d = event.data;
    const tool = this.scene.tools[d.action];
    if (tool?.durative) {
      agent.lanes.set(tool.lane, {
        lane: tool.lane,
        action: d.action,
        args: d.args,
        since_ms: event.sim_time_ms,
        until_ms: d.until_ms,
      });
    }
    if (agent.command) agent.command.outcome = tool?.durative ? "accepted" : "done";
    if (d.action === "move_to") {
      const dest = typeof d.args.dest === "string" ? d.args.dest : "";
      const to = this.places.get(dest)?.cellAt ?? parseCell(dest);
      const from = parseCell(d.cell) ?? agent.cellAt;
      if (to && from && to.space === from.space) {
        agent.move = { from, to, since: event.sim_time_ms, until: d.until_ms };
      }
    }
  }

  private moveItem(id: string, location: SceneItemLocation): void {
    const item = this.items.get(id);
    if (!item) return;
    if (item.location.at === "agent") {
      const holder = this.agents.get(item.location.agent);
      if (holder) holder.inventory = holder.inventory.filter((i) => i !== id);
    }
    item.location = location;
    item.cellAt = cellOf(location);
    this.itemsVersion++;
    if (location.at === "agent") this.agents.get(location.agent)?.inventory.push(id);
  }

  /** Sets items and place features to the server's truth (either may be partial). */
  setWorld(world: Pick<WorldChange, "items" | "features">): void {
    for (const [id, location] of Object.entries(world.items ?? {})) {
      const item = this.items.get(id);
      if (item && JSON.stringify(item.location) !== JSON.stringify(location)) this.moveItem(id, location);
    }
    for (const [id, features] of Object.entries(world.features ?? {})) {
      const place = this.places.get(id);
      if (place && JSON.stringify(place.features) !== JSON.stringify(features)) {
        place.features = features;
        this.featuresVersion++;
      }
    }
    this.version++;
  }

  private setOpen(cellName: string): void {
    const cell = parseCell(cellName);
    const space = cell && this.spaces.get(cell.space);
    if (!cell || !space) return;
    space.blocked[cell.y * space.width + cell.x] = 0;
    this.wallsVersion++;
  }

  get ended(): boolean {
    return hasEnded(this.status);
  }

  /** Where an agent stands at sim time t, between cells while a move is under way. */
  position(agent: ModelAgent, t: number): Cell | undefined {
    const m = agent.move;
    if (!m || !(m.until > m.since)) return agent.cellAt;
    const f = Math.max(0, Math.min(1, (t - m.since) / (m.until - m.since)));
    return {
      space: m.from.space,
      x: m.from.x + (m.to.x - m.from.x) * f,
      y: m.from.y + (m.to.y - m.from.y) * f,
    };
  }

  /** The cell an event happened at: the one it names, or its agent's. */
  eventCell(event: RunEvent): Cell | undefined {
    const d = event.data;
    if (d.cell !== undefined) return parseCell(d.cell);
    const who = d.agent ?? d.from;
    return who === undefined ? undefined : this.agents.get(who)?.cellAt;
  }

  /** A compact account of the final state, equal for every way of watching the same run. */
  digest(): {
    cursor: number;
    status: RunStatus;
    sim_time_ms: number;
    objectives: string[];
    agents: string[];
    items: string[];
  } {
    return {
      cursor: this.cursor,
      status: this.status,
      sim_time_ms: this.simTime,
      objectives: [...this.objectives.values()].map(
        (o) => `${o.id} ${o.progress.current}/${o.progress.target} ${o.status}`,
      ),
      agents: [...this.agents.values()].map(
        (a) =>
          `${a.id}@${a.cell} [${a.inventory.join(",")}] ${a.command ? `${a.command.text}: ${a.command.outcome}` : "-"}`,
      ),
      items: [...this.items.values()].map(
        (i) =>
          `${i.id}:${i.location.at === "cell" ? i.location.cell : i.location.at === "agent" ? i.location.agent : "gone"}`,
      ),
    };
  }
}
