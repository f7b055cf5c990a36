/**
 * The maps: one canvas per space. Walls and places are drawn once into a cached layer; items and
 * agents are drawn over it, agents batched into one path per colour so 1,000 of them stay cheap.
 * A frame redraws the maps only when what they show changed: a token moved by a pixel or more
 * from where it was drawn, an item or wall changed, the selection or a highlight. A canvas changed
 * costs the browser a copy of all its pixels to the screen, whatever was drawn on it.
 */
import type { Cell } from "../../engine/grid.js";
import { MapMarks, type MarkedMap } from "./map-marks.js";
import type { ModelAgent, RunModel } from "./run-model.js";

const COLORS = {
  ground: "#f4f1e8",
  grid: "#e2ddd0",
  wall: "#3b3f47",
  place: "#d8e8f5",
  placeEdge: "#2f6690",
  item: "#b5651d",
  sight: "rgba(255, 196, 0, 0.18)",
  sightEdge: "#b38600",
  selected: "#d1001f",
  highlight: "#7a00cc",
};
// Distinct, dark enough for white text and visible on the light ground.
const TOKEN_COLORS = ["#1f6feb", "#2e7d32", "#c2410c", "#7b1fa2", "#00838f", "#ad1457", "#5d4037", "#37474f"];

/** Names and item marks are drawn as placed elements when a map's cells are this large or larger… */
const MIN_LABELLED_CELL = 16;
/** …and the run is small enough to place every label each frame. */
const MAX_LABELLED_AGENTS = 60;
const MAX_LABELLED_THINGS = 200;
/** The height a map's figure takes beside its canvas: the caption and the margins. */
const FIGURE_CHROME_PX = 40;
/**
 * A labelled map's strip above and below its canvas, one label high: names of things on its top
 * and bottom rows go there when their neighbours leave no room on the map (a phone's small cells).
 */
const LABEL_MARGIN_PX = 14;

/** One space's map: its canvas at `cell` CSS pixels a cell, its cached walls, its marks if labelled. */
export interface SpaceMap extends MarkedMap {
  canvas: HTMLCanvasElement;
  ratio: number;
  background: HTMLCanvasElement | null;
  backgroundKey: number;
  marks: MapMarks | null;
}

/** Where an agent was last drawn, in cells (space null: on no map). */
interface Drawn {
  space: string | null;
  x: number;
  y: number;
}

export class MapView {
  selected: string | null = null;
  /** A cell outlined for a moment. */
  highlight: { cell: Cell; until: number } | null = null;
  maps: SpaceMap[] = [];
  /** Times the maps were redrawn (a page that shows no change redraws nothing). */
  draws = 0;
  /** The sim time last drawn. */
  time: number | undefined;
  private readonly colors = new Map<string, string>();
  private model!: RunModel;
  private agentList: ModelAgent[] = [];
  /** Where each agent of agentList was drawn. */
  private drawnAt: Drawn[] = [];
  private drawnState: string | null = null;
  private highlightShown = false;
  private builtFor = "";
  private pixelsPerCell = 1;
  private readonly onSelect: (agentId: string) => void;

  constructor(
    private readonly container: HTMLElement,
    { onSelect }: { onSelect: (agentId: string) => void },
  ) {
    this.onSelect = onSelect;
  }

  setModel(model: RunModel): void {
    this.model = model;
    this.agentList = [...model.agents.values()];
    this.build();
  }

  /**
   * Lays out one canvas per space, each scaled to fit the column's width and the window's height
   * below the map's top, so a whole map is seen at once; again when the window is resized.
   */
  private build(): void {
    const model = this.model;
    this.drawnAt = this.agentList.map(() => ({ space: null, x: 0, y: 0 }));
    this.drawnState = null;
    this.container.replaceChildren();
    this.maps = [];
    const { width, height } = this.available();
    const labelled =
      model.agents.size <= MAX_LABELLED_AGENTS && model.places.size + model.items.size <= MAX_LABELLED_THINGS;
    for (const space of model.spaces.values()) {
      const margins = labelled ? 2 * LABEL_MARGIN_PX : 0;
      const fit = Math.min((width - 4) / space.width, (height - 4 - margins) / space.height);
      const cell = Math.max(2, Math.min(56, Math.floor(fit)));
      const figure = document.createElement("figure");
      figure.className = "space";
      const caption = document.createElement("figcaption");
      caption.textContent = `${space.id} (${space.width}×${space.height})`;
      const stage = document.createElement("div");
      stage.className = "map-stage";
      const canvas = document.createElement("canvas");
      canvas.tabIndex = 0;
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", `map of ${space.id}; click an agent to select it`);
      const ratio = globalThis.devicePixelRatio || 1;
      canvas.width = space.width * cell * ratio;
      canvas.height = space.height * cell * ratio;
      canvas.style.width = `${space.width * cell}px`;
      canvas.style.height = `${space.height * cell}px`;
      canvas.dataset.space = space.id;
      canvas.addEventListener("click", (e) => this.click(space.id, cell, canvas, e));
      stage.append(canvas);
      const map: SpaceMap = {
        space,
        cell,
        canvas,
        ratio,
        background: null,
        backgroundKey: -1,
        marks: null,
        margin: 0,
      };
      if (labelled && cell >= MIN_LABELLED_CELL) {
        map.margin = LABEL_MARGIN_PX;
        stage.style.paddingBlock = `${LABEL_MARGIN_PX}px`;
        const layer = document.createElement("div");
        layer.className = "map-marks";
        layer.style.top = `${LABEL_MARGIN_PX + 1}px`;
        layer.setAttribute("aria-hidden", "true");
        stage.append(layer);
        map.marks = new MapMarks(layer, map, (agent) => this.colorOf(agent));
      }
      figure.append(caption, stage);
      this.container.append(figure);
      this.maps.push(map);
    }
    this.builtFor = `${width}×${height}`;
    // Device pixels per cell on the most detailed map: a token moved less than one is not redrawn.
    this.pixelsPerCell = Math.max(1, ...this.maps.map((m) => m.cell * m.ratio));
    if (this.time !== undefined) this.render(this.time);
  }

  /** Builds the maps again if the window's size changed what fits. */
  refit(): void {
    if (!this.model) return;
    const { width, height } = this.available();
    if (`${width}×${height}` !== this.builtFor) this.build();
  }

  /** The room for a map: the column's width, and the window's height below the maps' top. */
  private available(): { width: number; height: number } {
    const width = Math.max(200, this.container.clientWidth || 600);
    const top = this.container.getBoundingClientRect().top + (globalThis.scrollY || 0);
    const height = Math.max(200, (globalThis.innerHeight || 800) - top - FIGURE_CHROME_PX);
    return { width, height };
  }

  /** A run with few agents gives each its own colour; a larger one colours them by role. */
  private colorKey(agent: ModelAgent): string {
    return this.model.agents.size <= TOKEN_COLORS.length ? agent.id : agent.role;
  }

  colorOf(agent: ModelAgent): string {
    const key = this.colorKey(agent);
    let color = this.colors.get(key);
    if (!color) {
      color = TOKEN_COLORS[this.colors.size % TOKEN_COLORS.length]!;
      this.colors.set(key, color);
    }
    return color;
  }

  private click(spaceId: string, cell: number, canvas: HTMLCanvasElement, event: MouseEvent): void {
    const rect = canvas.getBoundingClientRect();
    const x = (event.clientX - rect.left) / cell - 0.5;
    const y = (event.clientY - rect.top) / cell - 0.5;
    let best: ModelAgent | null = null;
    let bestDistance = 1.2;
    for (const agent of this.model.agents.values()) {
      const at = this.model.position(agent, this.time ?? this.model.simTime);
      if (!at || at.space !== spaceId) continue;
      const distance = Math.hypot(at.x - x, at.y - y);
      if (distance < bestDistance) {
        best = agent;
        bestDistance = distance;
      }
    }
    if (best) this.onSelect(best.id);
  }

  /** Outlines a cell for a moment (an event's place, chosen in the log). */
  flash(cell: Cell | undefined): void {
    this.highlight = cell ? { cell, until: performance.now() + 2500 } : null;
    const map = cell && this.maps.find((m) => m.space.id === cell.space);
    map?.canvas.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  private backgroundOf(map: SpaceMap): HTMLCanvasElement {
    const key = this.model.wallsVersion;
    if (map.background && map.backgroundKey === key) return map.background;
    const { space, cell, ratio } = map;
    const layer = document.createElement("canvas");
    layer.width = map.canvas.width;
    layer.height = map.canvas.height;
    const g = layer.getContext("2d")!;
    g.scale(ratio, ratio);
    g.fillStyle = COLORS.ground;
    g.fillRect(0, 0, space.width * cell, space.height * cell);
    if (cell >= 6) {
      g.strokeStyle = COLORS.grid;
      g.lineWidth = 1;
      g.beginPath();
      for (let x = 0; x <= space.width; x++) g.rect(x * cell, 0, 0, space.height * cell);
      for (let y = 0; y <= space.height; y++) g.rect(0, y * cell, space.width * cell, 0);
      g.stroke();
    }
    g.fillStyle = COLORS.wall;
    for (let y = 0; y < space.height; y++)
      for (let x = 0; x < space.width; x++)
        if (space.blocked[y * space.width + x]) g.fillRect(x * cell, y * cell, cell, cell);
    // A labelled map's places are elements over it (map-marks.ts).
    for (const place of map.marks ? [] : this.model.places.values()) {
      const at = place.cellAt;
      if (!at || at.space !== space.id) continue;
      g.fillStyle = COLORS.place;
      g.fillRect(at.x * cell + 1, at.y * cell + 1, cell - 2, cell - 2);
      g.strokeStyle = COLORS.placeEdge;
      g.lineWidth = 2;
      g.strokeRect(at.x * cell + 1, at.y * cell + 1, cell - 2, cell - 2);
    }
    map.background = layer;
    map.backgroundKey = key;
    return layer;
  }

  /** Draws every map at sim time t (fractional between events while moves are under way), if it changed. */
  render(t: number): void {
    this.time = t;
    const now = performance.now();
    if (this.highlight && now > this.highlight.until) this.highlight = null;
    const positions = this.agentList.map((agent) => this.model.position(agent, t));
    if (!this.changedSinceDrawn(positions)) return;
    this.draws++;
    for (const map of this.maps) this.renderMap(map, positions, now);
  }

  /**
   * Whether the maps would look different from when they were last drawn, remembering what they
   * will show if so. Tokens are compared in device pixels: a move of less than one is not seen.
   */
  private changedSinceDrawn(positions: (Cell | undefined)[]): boolean {
    const model = this.model;
    const state = `${model.itemsVersion} ${model.wallsVersion} ${this.selected}`;
    // A highlight pulses: it is redrawn every frame while shown, and once more when it goes.
    let changed = state !== this.drawnState || this.highlight !== null || this.highlightShown;
    for (let i = 0; i < positions.length && !changed; i++) {
      const at = positions[i];
      const drawn = this.drawnAt[i]!;
      if (!at || !drawn.space) changed = (at?.space ?? null) !== drawn.space;
      else {
        const pixels = Math.max(Math.abs(at.x - drawn.x), Math.abs(at.y - drawn.y)) * this.pixelsPerCell;
        changed = at.space !== drawn.space || pixels >= 1;
      }
    }
    if (!changed) return false;
    this.drawnState = state;
    this.highlightShown = this.highlight !== null;
    positions.forEach((at, i) => {
      const drawn = this.drawnAt[i]!;
      drawn.space = at ? at.space : null;
      if (!at) return;
      drawn.x = at.x;
      drawn.y = at.y;
    });
    return true;
  }

  private renderMap(map: SpaceMap, positions: (Cell | undefined)[], now: number): void {
    const { space, cell, canvas, ratio } = map;
    const g = canvas.getContext("2d")!;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.drawImage(this.backgroundOf(map), 0, 0);
    g.scale(ratio, ratio);
    const model = this.model;
    const selectedIndex = this.selected ? this.agentList.findIndex((a) => a.id === this.selected) : -1;
    const selectedAt = selectedIndex >= 0 ? positions[selectedIndex] : null;
    if (selectedAt && selectedAt.space === space.id) {
      const r = model.scene.sight_radius;
      const x0 = Math.round(selectedAt.x) - r;
      const y0 = Math.round(selectedAt.y) - r;
      g.fillStyle = COLORS.sight;
      g.fillRect(x0 * cell, y0 * cell, (2 * r + 1) * cell, (2 * r + 1) * cell);
      g.strokeStyle = COLORS.sightEdge;
      g.lineWidth = 1;
      g.setLineDash([4, 3]);
      g.strokeRect(x0 * cell, y0 * cell, (2 * r + 1) * cell, (2 * r + 1) * cell);
      g.setLineDash([]);
    }
    const radius = Math.max(1.5, cell * 0.32);
    if (map.marks) map.marks.draw(model, this.agentList, positions, this.selected);
    else this.drawDots(map, g, positions, radius);
    // A labelled map rings its selected token itself.
    if (!map.marks && selectedAt && selectedAt.space === space.id) {
      g.strokeStyle = COLORS.selected;
      g.lineWidth = 3;
      g.beginPath();
      g.arc((selectedAt.x + 0.5) * cell, (selectedAt.y + 0.5) * cell, radius + 3, 0, Math.PI * 2);
      g.stroke();
    }
    const h = this.highlight?.cell;
    if (h && h.space === space.id) {
      const pulse = 2 + 2 * Math.sin(now / 120);
      g.strokeStyle = COLORS.highlight;
      g.lineWidth = 3;
      g.strokeRect(h.x * cell - pulse, h.y * cell - pulse, cell + 2 * pulse, cell + 2 * pulse);
    }
  }

  /** A map too small to name things: items and agents as dots, agents batched by colour. */
  private drawDots(
    map: SpaceMap,
    g: CanvasRenderingContext2D,
    positions: (Cell | undefined)[],
    radius: number,
  ): void {
    const { space, cell } = map;
    const model = this.model;
    const itemSize = Math.max(2, cell * 0.22);
    g.fillStyle = COLORS.item;
    g.beginPath();
    const itemsOnCell = new Map<string, number>();
    for (const item of model.items.values()) {
      const at = item.cellAt;
      if (!at || at.space !== space.id) continue;
      const key = `${at.x},${at.y}`;
      const n = itemsOnCell.get(key) ?? 0;
      itemsOnCell.set(key, n + 1);
      const cx = at.x * cell + cell * 0.2 + (n % 3) * cell * 0.3;
      const cy = at.y * cell + cell * 0.8 - Math.floor(n / 3) * cell * 0.25;
      g.moveTo(cx, cy - itemSize);
      g.lineTo(cx + itemSize, cy);
      g.lineTo(cx, cy + itemSize);
      g.lineTo(cx - itemSize, cy);
      g.closePath();
    }
    g.fill();
    const byColor = new Map<string, number[]>();
    for (let i = 0; i < positions.length; i++) {
      const at = positions[i];
      if (!at || at.space !== space.id) continue;
      const color = this.colorOf(this.agentList[i]!);
      let list = byColor.get(color);
      if (!list) byColor.set(color, (list = []));
      const cx = (at.x + 0.5) * cell;
      const cy = (at.y + 0.5) * cell;
      list.push(cx, cy);
    }
    // Tokens a few pixels wide are squares on whole pixels: as readable, and far cheaper to
    // rasterise than arcs or blended edges.
    const round = radius >= 4;
    const side = Math.max(2, Math.round(radius * 2));
    for (const [color, points] of byColor) {
      g.fillStyle = color;
      g.beginPath();
      for (let i = 0; i < points.length; i += 2) {
        const cx = points[i]!;
        const cy = points[i + 1]!;
        if (round) {
          g.moveTo(cx + radius, cy);
          g.arc(cx, cy, radius, 0, Math.PI * 2);
        } else g.rect(Math.round(cx - side / 2), Math.round(cy - side / 2), side, side);
      }
      g.fill();
    }
  }
}
