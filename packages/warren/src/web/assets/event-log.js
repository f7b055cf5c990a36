// The event log: the latest events, filtered by agent and kind; choosing one shows where it happened.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});
  const { el, seconds } = viewer;

  /** Rows shown at once, newest first. */
  const MAX_ROWS = 100;
  /** Characters of one field shown in a row. */
  const MAX_FIELD = 160;

  function summary(event) {
    const d = event.data ?? {};
    const parts = [];
    for (const [key, value] of Object.entries(d)) {
      if (key === "objectives") continue;
      const text = typeof value === "string" ? value : JSON.stringify(value);
      parts.push(`${key}=${text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD)}…` : text}`);
    }
    return parts.join(" ");
  }

  function concerns(event, agentId) {
    const d = event.data ?? {};
    return d.agent === agentId || d.from === agentId || d.to === agentId;
  }

  class EventLog {
    constructor(container, { onPick }) {
      this.onPick = onPick;
      this.kinds = new Set();
      this.agentFilter = el("select", {
        "aria-label": "filter events by agent",
        onchange: () => this.render(),
      });
      this.kindFilter = el("select", {
        "aria-label": "filter events by kind",
        onchange: () => this.render(),
      });
      this.list = el("ol", { class: "events", "aria-label": "events, newest first" });
      container.replaceChildren(
        el(
          "div",
          { class: "filters" },
          el("label", {}, "agent ", this.agentFilter),
          el("label", {}, "kind ", this.kindFilter),
        ),
        this.list,
      );
    }

    /** A replay that starts over brings a new model of the same run: the filters stay as chosen. */
    setModel(model) {
      this.model = model;
      if (this.agentFilter.options.length > 0) return;
      this.agentFilter.replaceChildren(
        el("option", { value: "" }, "every agent"),
        ...[...model.agents.values()].map((a) => el("option", { value: a.id }, `${a.name} (${a.id})`)),
      );
      this.kindFilter.replaceChildren(el("option", { value: "" }, "every kind"));
    }

    /** Shows the newest matching events: only the new ones are added while the run streams. */
    render() {
      const model = this.model;
      if (!model) return;
      const filter = `${this.agentFilter.value}\n${this.kindFilter.value}`;
      const fresh =
        model !== this.shownModel || filter !== this.shownFilter || model.cursor < this.shownCursor;
      const since = fresh ? 0 : this.shownCursor;
      const [agent, kind] = filter.split("\n");
      const rows = [];
      for (let i = model.events.length - 1; i >= 0 && model.events[i].cursor > since; i--) {
        const event = model.events[i];
        if (!this.kinds.has(event.kind)) {
          this.kinds.add(event.kind);
          this.kindFilter.append(el("option", { value: event.kind }, event.kind));
        }
        if (rows.length >= MAX_ROWS || (kind && event.kind !== kind) || (agent && !concerns(event, agent)))
          continue;
        rows.push(this.row(event));
      }
      this.shownModel = model;
      this.shownFilter = filter;
      this.shownCursor = model.cursor;
      if (!fresh) {
        this.list.prepend(...rows);
        while (this.list.children.length > MAX_ROWS) this.list.lastElementChild.remove();
        return;
      }
      const focused = this.list.contains(document.activeElement)
        ? document.activeElement.closest("[data-cursor]")?.dataset.cursor
        : undefined;
      this.list.replaceChildren(...rows);
      if (focused) this.list.querySelector(`li[data-cursor="${focused}"] button`)?.focus();
    }

    row(event) {
      return el(
        "li",
        { dataset: { cursor: event.cursor, kind: event.kind } },
        el(
          "button",
          {
            type: "button",
            class: "event",
            title: "show where it happened",
            onclick: () => this.onPick(event),
          },
          el("span", { class: "cursor" }, `#${event.cursor}`),
          el("span", { class: "time" }, seconds(event.sim_time_ms)),
          el("span", { class: `kind kind-${event.kind}` }, event.kind),
          el("span", { class: "data" }, summary(event)),
        ),
      );
    }
  }

  viewer.EventLog = EventLog;
})();
