/**
 * A panel per agent: who it is, who plays it, what its lanes are busy with, what it carries, its
 * latest observation's text and what became of its latest command.
 */
import { el } from "./dom.js";
import type { ModelAgent, RunModel } from "./run-model.js";
import { seconds } from "./sim-seconds.js";

/** Cards drawn at once; with more agents the rest are reached by selecting them on the map. */
const MAX_CARDS = 40;

function lanesOf(agent: ModelAgent): string {
  if (agent.lanes.size === 0) return "idle";
  return [...agent.lanes]
    .map(([lane, busy]) => {
      const target = busy.args.dest ?? busy.args.item ?? busy.args.to ?? "";
      return `${lane}: ${busy.action}${target ? ` → ${target}` : ""} until ${seconds(busy.until_ms)}`;
    })
    .join("; ");
}

function commandOf(agent: ModelAgent): string {
  const c = agent.command;
  if (!c) return "none yet";
  const reason = c.reason ? ` — ${c.reason}` : "";
  return `${c.text} (${c.observation_id}${c.expired ? ", expired" : ""}): ${c.outcome}${reason}`;
}

function receiptOf(agent: ModelAgent): string | null {
  const r = agent.receipt;
  if (!r) return null;
  return `${r.status}${r.command_id ? ` ${r.command_id}` : ""}${r.detail ? ` — ${r.detail}` : ""}`;
}

function controllerOf(agent: ModelAgent): string {
  if (agent.controller === "solution") return "solution runner";
  if (agent.controller !== "remote") return "none";
  // `holder` is known only while the page watches a served run: undefined, null (free) or a name.
  if (agent.holder === undefined) return "remote holder";
  if (agent.holder === null) return "remote holder: none now";
  return `remote holder: ${agent.holder || "a client with no name"}`;
}

function facts(agent: ModelAgent): HTMLElement {
  const receipt = receiptOf(agent);
  return el(
    "dl",
    { class: "facts" },
    el("dt", {}, "role"),
    el("dd", {}, agent.role),
    el("dt", {}, "controller"),
    el("dd", { dataset: { field: "controller" } }, controllerOf(agent)),
    el("dt", {}, "at"),
    el("dd", { dataset: { field: "cell" } }, agent.cell),
    el("dt", {}, "lanes"),
    el("dd", { dataset: { field: "lanes" } }, lanesOf(agent)),
    el("dt", {}, "carries"),
    el("dd", { dataset: { field: "inventory" } }, agent.inventory.join(", ") || "nothing"),
    el("dt", {}, "command"),
    el("dd", { dataset: { field: "command" } }, commandOf(agent)),
    receipt && el("dt", {}, "receipt"),
    receipt && el("dd", { dataset: { field: "receipt" } }, receipt),
  );
}

/** A card as drawn, with what it showed: it is drawn again only when one of these changed. */
interface ShownCard {
  li: HTMLLIElement;
  touched: number;
  holder: string | null | undefined;
  selected: boolean;
}

export class AgentPanel {
  private readonly onSelect: (agentId: string) => void;
  private readonly colorOf: (agent: ModelAgent) => string;
  private readonly detailBox = el("div", { class: "agent-detail-box" });
  private readonly cardsBox = el("div", { class: "agent-cards-box" });
  private cardsModel: RunModel | null = null;
  private cards = new Map<string, ShownCard>();
  private list = el("ul", { class: "agent-cards" });

  /** `colorOf(agent)` is its token's colour on the map, shown beside its name. */
  constructor(
    container: HTMLElement,
    { onSelect, colorOf }: { onSelect: (agentId: string) => void; colorOf: (agent: ModelAgent) => string },
  ) {
    this.onSelect = onSelect;
    this.colorOf = colorOf;
    container.replaceChildren(this.detailBox, this.cardsBox);
  }

  /** The selected agent, with its latest observation's `text` when known. */
  renderDetail(model: RunModel, selectedId: string | null, text: string): void {
    const selected = selectedId ? model.agents.get(selectedId) : undefined;
    this.detailBox.replaceChildren(
      selected
        ? el(
            "section",
            {
              class: "agent-detail",
              "aria-label": `selected agent ${selected.name}`,
              dataset: { agent: selected.id },
            },
            el("h3", {}, `${selected.name} `, el("span", { class: "muted" }, `(${selected.id})`)),
            facts(selected),
            el("h4", {}, `latest observation ${selected.observationId ?? ""}`),
            el(
              "pre",
              { class: "observation", dataset: { field: "observation" } },
              text || "(no observation yet)",
            ),
          )
        : el(
            "p",
            { class: "muted" },
            "Select an agent (on the map or below) to see its sight and observation.",
          ),
    );
  }

  /** A card per agent (the first MAX_CARDS of them); only the cards of agents that changed are redrawn. */
  renderCards(model: RunModel, selectedId: string | null): void {
    if (model !== this.cardsModel) {
      this.cardsModel = model;
      this.cards = new Map();
      this.list = el("ul", { class: "agent-cards" });
      const more = model.agents.size - MAX_CARDS;
      this.cardsBox.replaceChildren(
        this.list,
        ...(more > 0
          ? [el("p", { class: "muted" }, `…and ${more} more agents: select them on the map.`)]
          : []),
      );
    }
    let index = 0;
    for (const agent of model.agents.values()) {
      if (index++ >= MAX_CARDS) break;
      const shown = this.cards.get(agent.id);
      const selected = agent.id === selectedId;
      if (
        shown &&
        shown.touched === agent.touched &&
        shown.holder === agent.holder &&
        shown.selected === selected
      )
        continue;
      const card = this.card(agent, selected);
      // Keyboard focus stays on the card's button as it is redrawn.
      const hadFocus = shown?.li.contains(document.activeElement);
      if (shown) shown.li.replaceWith(card);
      else this.list.append(card);
      if (hadFocus) card.querySelector("button")?.focus();
      this.cards.set(agent.id, { li: card, touched: agent.touched, holder: agent.holder, selected });
    }
  }

  private card(agent: ModelAgent, selected: boolean): HTMLLIElement {
    return el(
      "li",
      { class: `agent-card${selected ? " selected" : ""}`, dataset: { agent: agent.id } },
      el(
        "button",
        {
          type: "button",
          class: "agent-name",
          "aria-pressed": selected ? "true" : "false",
          onclick: () => this.onSelect(agent.id),
        },
        el("span", { class: "swatch", style: `background: ${this.colorOf(agent)}`, "aria-hidden": "true" }),
        `${agent.name} (${agent.id})`,
      ),
      facts(agent),
    );
  }
}
