/**
 * The event log: the latest events as sentences (or their raw fields), filtered by agent and kind;
 * choosing one shows where it happened.
 */
import type { RunEvent } from "../../engine/events.js";
import { el } from "./dom.js";
import { eventSentence, rawFields } from "./event-sentence.js";
import type { RunModel } from "./run-model.js";
import { seconds } from "./sim-seconds.js";

/** Rows shown at once, newest first. */
const MAX_ROWS = 100;

function concerns(event: RunEvent, agentId: string): boolean {
  const d = event.data;
  return d.agent === agentId || d.from === agentId || d.to === agentId;
}

export class EventLog {
  private readonly onPick: (event: RunEvent) => void;
  private readonly kinds = new Set<string>();
  private readonly agentFilter: HTMLSelectElement;
  private readonly kindFilter: HTMLSelectElement;
  private readonly rawToggle: HTMLInputElement;
  private readonly list: HTMLOListElement;
  private model: RunModel | null = null;
  /** What the list shows: the events of this model up to this cursor, through this filter. */
  private shownModel: RunModel | null = null;
  private shownFilter = "";
  private shownCursor = 0;

  constructor(container: HTMLElement, { onPick }: { onPick: (event: RunEvent) => void }) {
    this.onPick = onPick;
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
  setModel(model: RunModel): void {
    this.model = model;
    if (this.agentFilter.options.length > 0) return;
    this.agentFilter.replaceChildren(
      el("option", { value: "" }, "every agent"),
      ...[...model.agents.values()].map((a) => el("option", { value: a.id }, `${a.name} (${a.id})`)),
    );
    this.kindFilter.replaceChildren(el("option", { value: "" }, "every kind"));
  }

  /** Shows the newest matching events: only the new ones are added while the run streams. */
  render(): void {
    const model = this.model;
    if (!model) return;
    const agent = this.agentFilter.value;
    const kind = this.kindFilter.value;
    const filter = `${agent}\n${kind}\n${this.rawToggle.checked}`;
    const fresh = model !== this.shownModel || filter !== this.shownFilter || model.cursor < this.shownCursor;
    const since = fresh ? 0 : this.shownCursor;
    const rows = [];
    for (let i = model.events.length - 1; i >= 0 && model.events[i]!.cursor > since; i--) {
      const event = model.events[i]!;
      if (!this.kinds.has(event.kind)) {
        this.kinds.add(event.kind);
        this.kindFilter.append(el("option", { value: event.kind }, event.kind));
      }
      if (rows.length >= MAX_ROWS || (kind && event.kind !== kind) || (agent && !concerns(event, agent)))
        continue;
      rows.push(this.row(model, event));
    }
    this.shownModel = model;
    this.shownFilter = filter;
    this.shownCursor = model.cursor;
    if (!fresh) {
      this.list.prepend(...rows);
      while (this.list.children.length > MAX_ROWS) this.list.lastElementChild?.remove();
      return;
    }
    const focused = this.list.contains(document.activeElement)
      ? document.activeElement?.closest<HTMLElement>("[data-cursor]")?.dataset.cursor
      : undefined;
    this.list.replaceChildren(...rows);
    if (focused) this.list.querySelector<HTMLElement>(`li[data-cursor="${focused}"] button`)?.focus();
  }

  private row(model: RunModel, event: RunEvent): HTMLLIElement {
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
          : [el("span", { class: "sentence" }, eventSentence(event, model))]),
      ),
    );
  }
}
