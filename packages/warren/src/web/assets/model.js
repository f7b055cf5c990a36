// The run as the viewer knows it: the scene at t=0, moved on by the run's events in cursor order.
// Pure state, no DOM: the page draws it, and Node tests load it as it is.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});

  /** How many events the model keeps for the log and for replay (older ones go, a tenth at a time). */
  const KEEP_EVENTS = 200_000;

  function parseCell(name) {
    const m = /^([A-Za-z0-9_-]+):(\d+),(\d+)$/.exec(String(name));
    return m ? { space: m[1], x: Number(m[2]), y: Number(m[3]) } : null;
  }

  /** An item's cell, parsed, when it lies on one. */
  function cellOf(location) {
    return location.at === "cell" ? parseCell(location.cell) : null;
  }

  function describeDecision(data) {
    if (typeof data.action === "string") {
      const args = data.args && Object.keys(data.args).length ? ` ${JSON.stringify(data.args)}` : "";
      return `${data.action}${args}`;
    }
    if (typeof data.sleep_ms === "number") return `sleep ${data.sleep_ms / 1000} s`;
    return "noop";
  }

  class RunModel {
    /**
     * `changes`: the world's changes by cursor from the run's record (what the events do not say),
     * applied after their event; without them a live page sets the world with `setWorld`.
     */
    constructor(scene, { keepEvents = KEEP_EVENTS, changes = [] } = {}) {
      this.scene = scene;
      this.keepEvents = keepEvents;
      this.changes = new Map(changes.map((c) => [c.cursor, c]));
      this.cursor = 0;
      /** Events that skipped cursors (should stay 0: the stream has no gaps). */
      this.gaps = 0;
      /** Events seen again at or below the cursor, ignored (should stay 0). */
      this.duplicates = 0;
      this.simTime = 0;
      this.status = "created";
      this.statusReason = "";
      this.events = [];
      this.firstKept = 1;
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
      this.lastEvent = null;
      /** Where each item was taken, by the took event's cursor: the event names no cell. */
      this.tookAt = new Map();
      /** Bumped when a wall opens, so the map redraws its walls. */
      this.wallsVersion = 0;
      /** Bumped when an item moves, so the map redraws. */
      this.itemsVersion = 0;
      /** Bumped when a place's features change, so the places list is redrawn. */
      this.featuresVersion = 0;
      /** Bumped on every change, so views redraw only what moved. */
      this.version = 0;
    }

    /**
     * Applies the next event. One at or below the cursor is a duplicate and ignored; one past
     * cursor + 1 is a gap, counted (and applied: the view goes on, the count shows the fault).
     * Returns whether it was applied.
     */
    apply(event) {
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
        this.firstKept = this.events[0].cursor;
      }
      this.change(event);
      const change = this.changes.get(event.cursor);
      if (change) this.setWorld(change);
      this.lastEvent = event;
      this.version++;
      return true;
    }

    change(event) {
      const d = event.data ?? {};
      const agent = typeof d.agent === "string" ? this.agents.get(d.agent) : undefined;
      // Which event last changed the agent: its card is redrawn only then.
      if (agent) agent.touched = event.cursor;
      switch (event.kind) {
        case "status":
          this.status = d.status;
          this.statusReason = d.reason ?? "";
          return;
        case "run_ended":
          for (const o of d.objectives ?? []) this.objectives.set(o.id, o);
          if (this.status === "running") this.statusReason = d.reason ?? "";
          return;
        case "wake":
          if (agent) {
            agent.observationId = d.observation_id;
            agent.wakeReason = d.reason;
          }
          return;
        case "verdict":
        case "expired":
          if (agent) {
            agent.receipt = {
              observation_id: d.observation_id,
              command_id: d.command_id ?? null,
              status: event.kind === "expired" ? "expired" : d.status,
              detail:
                event.kind === "expired" ? "its decision deadline passed: a noop was recorded" : d.detail,
            };
          }
          return;
        case "decision":
          // A remote agent's accepted command has no verdict event: its decision carries the receipt.
          if (agent && event.receipt) {
            const r = event.receipt;
            agent.receipt = {
              observation_id: r.observation_id,
              command_id: r.command_id,
              status: r.status,
              detail: r.detail,
            };
          }
          if (agent) {
            const acting = typeof d.action === "string";
            // A refused action's decision event carries the refusal.
            const refused = typeof d.refused === "string";
            agent.command = {
              observation_id: d.observation_id,
              text: describeDecision(d),
              expired: d.expired === true,
              outcome: refused ? "rejected" : acting ? "pending" : "accepted",
              reason: refused ? d.refused : "",
              at: event.sim_time_ms,
            };
          }
          return;
        case "action_started":
          if (agent) this.started(agent, event);
          return;
        case "action_ended":
          if (agent) {
            for (const [lane, busy] of agent.lanes) if (busy.action === d.action) agent.lanes.delete(lane);
            if (d.action === "move_to") agent.move = null;
            if (agent.command?.text.startsWith(d.action)) agent.command.outcome = d.result;
          }
          return;
        case "arrived":
          if (agent) {
            agent.cell = d.cell;
            agent.cellAt = parseCell(d.cell);
            agent.move = null;
          }
          return;
        case "took":
          if (agent) this.tookAt.set(event.cursor, agent.cell);
          this.moveItem(d.item, { at: "agent", agent: d.agent });
          return;
        case "dropped":
          this.moveItem(d.item, { at: "cell", cell: d.cell });
          return;
        case "objective":
          // A scenario that counts a dropped item uses it up at once (a medkit at the clinic, a crate sold).
          if (this.lastEvent?.kind === "dropped" && this.lastEvent.sim_time_ms === event.sim_time_ms) {
            const before = this.objectives.get(d.id)?.progress.current ?? 0;
            if (d.current > before) this.moveItem(this.lastEvent.data.item, { at: "gone" });
          }
          this.objectives.set(d.id, {
            ...this.objectives.get(d.id),
            id: d.id,
            status: d.status,
            progress: { current: d.current, target: d.target },
          });
          return;
        case "bridge_opened":
          this.setOpen(d.cell);
          return;
        default:
          return;
      }
    }

    started(agent, event) {
      const d = event.data;
      const tool = this.scene.tools[d.action];
      if (tool?.durative) {
        agent.lanes.set(tool.lane, {
          action: d.action,
          args: d.args ?? {},
          since: event.sim_time_ms,
          until: d.until_ms,
        });
      }
      if (agent.command) agent.command.outcome = tool?.durative ? "accepted" : "done";
      if (d.action === "move_to") {
        const dest = this.places.get(d.args?.dest)?.cellAt ?? parseCell(d.args?.dest);
        const from = parseCell(d.cell) ?? agent.cellAt;
        if (dest && from && dest.space === from.space) {
          agent.move = { from, to: dest, since: event.sim_time_ms, until: d.until_ms };
        }
      }
    }

    moveItem(id, location) {
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

    /** Sets items and place features to the server's truth ({items, features}, either may be partial). */
    setWorld(world) {
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

    setOpen(cellName) {
      const cell = parseCell(cellName);
      const space = cell && this.spaces.get(cell.space);
      if (!space) return;
      space.blocked[cell.y * space.width + cell.x] = 0;
      this.wallsVersion++;
    }

    get ended() {
      return this.status !== "created" && this.status !== "running";
    }

    /** Where an agent stands at sim time t, between cells while a move is under way. */
    position(agent, t) {
      const m = agent.move;
      if (!m || !(m.until > m.since)) return agent.cellAt;
      const f = Math.max(0, Math.min(1, (t - m.since) / (m.until - m.since)));
      return {
        space: m.from.space,
        x: m.from.x + (m.to.x - m.from.x) * f,
        y: m.from.y + (m.to.y - m.from.y) * f,
      };
    }

    /** The cell an event happened at, if it names one or concerns an agent or a place. */
    eventCell(event) {
      const d = event.data ?? {};
      if (typeof d.cell === "string") return parseCell(d.cell);
      if (typeof d.place === "string" && this.places.has(d.place)) return this.places.get(d.place).cellAt;
      const agent = this.agents.get(d.agent ?? d.from);
      return agent ? agent.cellAt : null;
    }

    /** A compact account of the final state, equal for every way of watching the same run. */
    digest() {
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

  viewer.RunModel = RunModel;
  viewer.parseCell = parseCell;
})();
