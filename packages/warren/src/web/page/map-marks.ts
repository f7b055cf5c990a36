/**
 * The marks and labels of a map drawn large enough to name things: place squares, item marks,
 * agent tokens and their names, as elements over the map's canvas, every label and item mark
 * placed where it covers nothing else (label-layout.ts). Names go in as text, never as markup.
 */
import type { Cell } from "../../engine/grid.js";
import {
  type Box,
  type Label,
  overlaps,
  type Placed,
  placeLabels,
  type Size,
  shortenings,
} from "./label-layout.js";
import type { ModelAgent, ModelItem, ModelSpace, RunModel } from "./run-model.js";

/** The map the marks are drawn over: `margin` the strip above and below it that labels may use. */
export interface MarkedMap {
  space: ModelSpace;
  cell: number;
  margin: number;
}

/** A form of a place's or agents' name: its lines, in its box's size. */
interface TextForm extends Size {
  lines: string[];
}

/** A form of the items on a cell: a diamond each, or one mark with their count. */
interface ItemForm extends Size {
  diamonds?: number;
  count?: string;
}

type MapLabel =
  | (Label<TextForm> & { kind: "place" | "agent" })
  | (Label<ItemForm> & { kind: "item"; items: ModelItem[] });

type Typesetter = ReturnType<typeof typesetter>;

/** The labels' font and line height, the same as viewer.css gives `.map-label`… */
const LABEL_FONT = "600 11px system-ui, sans-serif";
const LINE_PX = 13;
/** …and on a map of small cells (a phone's), `.small .map-label`. */
const SMALL_LABEL_FONT = "600 10px system-ui, sans-serif";
const SMALL_LINE_PX = 12;
const SMALL_CELL_PX = 32;
/** A label's padding left and right, and its border, in pixels. */
const LABEL_PAD = 5;

/** The width of the ring around the selected agent's token. */
const SELECTED_RING_PX = 3;

const union = (a: Box, b: Box): Box => {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
};

let context: CanvasRenderingContext2D | null = null;
/** Text widths by font and text: measured once. */
const widths = new Map<string, number>();

/** Lays out label texts in one font: each text's width, and a label's box for its lines. */
function typesetter(font: string, linePx: number) {
  const measure = (text: string): number => {
    const key = `${font}\n${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      context ??= document.createElement("canvas").getContext("2d")!;
      context.font = font;
      width = Math.ceil(context.measureText(text).width) + LABEL_PAD;
      widths.set(key, width);
    }
    return width;
  };
  const textBox = (lines: string[]): TextForm => ({
    lines,
    w: Math.max(...lines.map(measure)),
    h: lines.length * linePx + 1,
  });
  return { measure, textBox, linePx };
}

/** The names of agents standing together, largest form first: all names, first names stacked or in a line, a count. */
function agentVariants(agents: ModelAgent[], textBox: Typesetter["textBox"]): TextForm[] {
  if (agents.length === 1) return shortenings(agents[0]!.name).map((name) => textBox([name]));
  const first = agents.map((a) => a.name.split(/\s+/)[0]!);
  return [
    textBox(agents.map((a) => a.name)),
    textBox(first),
    textBox([first.join(" · ")]),
    textBox([`${agents.length} agents`]),
  ];
}

export class MapMarks {
  /** Shown elements by key, and where each label was placed last (it stays while it fits). */
  readonly elements = new Map<string, HTMLElement>();
  private previous = new Map<string, Placed>();
  /** Labels that fit nowhere in the last frame (kept for tests and benchmarks). */
  dropped: string[] = [];
  private readonly type: Typesetter;

  /** `colorOf(agent)` is its token's colour. */
  constructor(
    readonly layer: HTMLElement,
    private readonly map: MarkedMap,
    private readonly colorOf: (agent: ModelAgent) => string,
  ) {
    const small = map.cell < SMALL_CELL_PX;
    layer.classList.toggle("small", small);
    this.type = small ? typesetter(SMALL_LABEL_FONT, SMALL_LINE_PX) : typesetter(LABEL_FONT, LINE_PX);
  }

  private element(key: string, className: string): HTMLElement {
    let e = this.elements.get(key);
    if (!e) {
      e = document.createElement("div");
      e.className = className;
      e.dataset.key = key;
      this.layer.append(e);
      this.elements.set(key, e);
    }
    e.dataset.seen = "1";
    return e;
  }

  /** How much of the box lies on blocked cells, in square pixels. */
  private wallArea(box: Box): number {
    const { space, cell } = this.map;
    let area = 0;
    const x0 = Math.max(0, Math.floor(box.x / cell));
    const y0 = Math.max(0, Math.floor(box.y / cell));
    const x1 = Math.min(space.width - 1, Math.floor((box.x + box.w - 1) / cell));
    const y1 = Math.min(space.height - 1, Math.floor((box.y + box.h - 1) / cell));
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        if (!space.blocked[y * space.width + x]) continue;
        const w = Math.min(box.x + box.w, (x + 1) * cell) - Math.max(box.x, x * cell);
        const h = Math.min(box.y + box.h, (y + 1) * cell) - Math.max(box.y, y * cell);
        area += Math.max(0, w) * Math.max(0, h);
      }
    return area;
  }

  /** Draws the marks and labels for agents at `positions` (index-aligned with `agents`). */
  draw(
    model: RunModel,
    agents: ModelAgent[],
    positions: (Cell | undefined)[],
    selectedId: string | null,
  ): void {
    const { space, cell } = this.map;
    const { measure, textBox, linePx } = this.type;
    for (const e of this.elements.values()) e.dataset.seen = "";
    const marks: Box[] = [];
    const labels: MapLabel[] = [];
    const placeKeyAt = new Map<string, string>();
    const placeBoxes: Box[] = [];
    for (const place of model.places.values()) {
      const at = place.cellAt;
      if (!at || at.space !== space.id) continue;
      const key = `place:${place.id}`;
      const box = { x: at.x * cell + 1, y: at.y * cell + 1, w: cell - 2, h: cell - 2, key };
      placeKeyAt.set(`${at.x},${at.y}`, key);
      marks.push(box);
      placeBoxes.push(box);
      const square = this.element(key, "map-place");
      square.dataset.cell = `${at.x},${at.y}`;
      this.put(square, box);
      labels.push({
        key: `label:${key}`,
        anchor: box,
        variants: shortenings(place.name).map((name) => textBox([name])),
        kind: "place",
      });
    }
    // Agents standing together share one stacked label and fan out a little on their cell.
    const radius = Math.max(4, cell * 0.3);
    const groups = new Map<string, { at: Cell; agents: ModelAgent[] }>();
    positions.forEach((at, i) => {
      if (!at || at.space !== space.id) return;
      const key = `${at.x.toFixed(2)},${at.y.toFixed(2)}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { at, agents: [] }));
      group.agents.push(agents[i]!);
    });
    const agentLabels: MapLabel[] = [];
    for (const [where, { at, agents: together }] of groups) {
      const spread = Math.min(radius * 0.8, (cell * 0.6) / together.length);
      let box: Box | null = null;
      together.forEach((agent, i) => {
        const cx = (at.x + 0.5) * cell + (i - (together.length - 1) / 2) * spread;
        const cy = (at.y + 0.5) * cell;
        // The selected token's ring is part of its box: no label may cover the ring either.
        const r = agent.id === selectedId ? radius + SELECTED_RING_PX : radius;
        const token = { x: cx - r, y: cy - r, w: 2 * r, h: 2 * r };
        const e = this.element(`token:${agent.id}`, "map-token");
        e.style.background = this.colorOf(agent);
        e.classList.toggle("selected", agent.id === selectedId);
        this.put(e, token);
        box = box ? union(box, token) : token;
      });
      // A group has one agent at least.
      const group = box!;
      marks.push(group);
      // A token on a place's square is named from beside the square: no spot inside it is free.
      const anchor = placeBoxes.reduce(
        (sum, square) => (overlaps(square, group) ? union(sum, square) : sum),
        group,
      );
      const label: MapLabel = {
        key: `label:agents:${where}`,
        anchor,
        variants: agentVariants(together, textBox),
        kind: "agent",
      };
      if (together.some((a) => a.id === selectedId)) agentLabels.unshift(label);
      else agentLabels.push(label);
    }
    // Item marks first (they belong inside their cell), then places' names, then agents'.
    const itemsAt = new Map<string, ModelItem[]>();
    for (const item of model.items.values()) {
      const at = item.cellAt;
      if (!at || at.space !== space.id) continue;
      const key = `${at.x},${at.y}`;
      itemsAt.set(key, [...(itemsAt.get(key) ?? []), item]);
    }
    const side = Math.max(7, Math.min(12, Math.round(cell * 0.28)));
    const itemLabels = [...itemsAt].map(([key, items]): MapLabel => {
      const [x = 0, y = 0] = key.split(",").map(Number);
      const count = `◆${items.length}`;
      const variants: ItemForm[] =
        items.length <= 3 ? [{ diamonds: items.length, w: items.length * (side + 1), h: side }] : [];
      if (items.length > 1) variants.push({ count, w: measure(count), h: linePx + 1 });
      return {
        key: `item:${key}`,
        anchor: { x: x * cell, y: y * cell, w: cell, h: cell },
        variants,
        inside: true,
        mayCover: placeKeyAt.has(key) ? [placeKeyAt.get(key)!] : undefined,
        kind: "item",
        items,
      };
    });
    const ordered = [...itemLabels, ...labels, ...agentLabels];
    const { placed, dropped } = placeLabels({
      bounds: {
        x: 0,
        y: -this.map.margin,
        w: space.width * cell,
        h: space.height * cell + 2 * this.map.margin,
      },
      marks,
      labels: ordered,
      soft: (box) => this.wallArea(box),
      previous: this.previous,
    });
    this.previous = placed;
    this.dropped = dropped;
    for (const label of ordered) {
      const at = placed.get(label.key);
      if (!at) continue;
      if (label.kind === "item") this.drawItems(label, label.variants[at.variant]!, at, side);
      else {
        const e = this.element(label.key, `map-label ${label.kind}-label`);
        const text = label.variants[at.variant]!.lines.join("\n");
        if (e.textContent !== text) e.textContent = text;
        this.put(e, at);
      }
    }
    for (const [key, e] of this.elements) {
      if (e.dataset.seen) continue;
      e.remove();
      this.elements.delete(key);
    }
  }

  private drawItems(
    label: { key: string; items: ModelItem[] },
    variant: ItemForm,
    at: Box,
    side: number,
  ): void {
    const e = this.element(label.key, "map-item");
    const shape = variant.count ? `count ${variant.count}` : `diamonds ${variant.diamonds}`;
    if (e.dataset.shape !== shape) {
      e.dataset.shape = shape;
      e.classList.toggle("count", Boolean(variant.count));
      e.replaceChildren(
        ...(variant.count
          ? [variant.count]
          : label.items.map(() => {
              const d = document.createElement("span");
              d.className = "diamond";
              d.style.width = d.style.height = `${side}px`;
              return d;
            })),
      );
    }
    e.dataset.items = label.items.map((i) => i.id).join(" ");
    e.dataset.cell = label.key.slice("item:".length);
    this.put(e, at);
  }

  private put(e: HTMLElement, box: Box): void {
    const style = e.style;
    const left = `${box.x}px`;
    const top = `${box.y}px`;
    if (style.left !== left) style.left = left;
    if (style.top !== top) style.top = top;
    const width = `${box.w}px`;
    const height = `${box.h}px`;
    if (style.width !== width) style.width = width;
    if (style.height !== height) style.height = height;
  }
}
