// The event log: the latest events as sentences (or their raw fields), filtered by agent and kind;
// choosing one shows where it happened.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});
  const { el, seconds, eventSentence, rawFields } = viewer;

  /** Rows shown at once, newest first. */
  const MAX_ROWS = 100;

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
      this.rawToggle = el("input", {
        type: "checkbox",
        id: "raw-events",
        onchange: () => this.render(),
      });
      this.list = el("ol", { class: "events", "aria-label": "events, newest first" });
      container.replaceChildren(
        el(
          "div",
          { class: "filters" },
          el("label", {}, "agent ", this.agentFilter),
          el("label", {}, "kind ", this.kindFilter),
          el("label", {}, this.rawToggle, " raw fields (key=value)"),
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
      const filter = `${this.agentFilter.value}\n${this.kindFilter.value}\n${this.rawToggle.checked}`;
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
          ...(this.rawToggle.checked
            ? [
                el("span", { class: `kind kind-${event.kind}` }, event.kind),
                el("span", { class: "data" }, rawFields(event)),
              ]
            : [el("span", { class: "sentence" }, eventSentence(event, this.model))]),
        ),
      );
    }
  }

  viewer.EventLog = EventLog;
})();
