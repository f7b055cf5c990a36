/**
 * Label placement: given the marks on a map and the labels to show, a position for each label that
 * covers no mark and no other label. Pure, no DOM: the map calls it every drawn frame, and Node
 * tests run it as it is. Boxes are in CSS pixels.
 */

export interface Size {
  w: number;
  h: number;
}

/** A box on the map; one with a key may be let through by a label's `mayCover`. */
export interface Box extends Size {
  x: number;
  y: number;
  key?: string;
}

/** A label: its forms, longest first, to be placed around its anchor. */
export interface Label<V extends Size = Size> {
  key: string;
  anchor: Box;
  variants: V[];
  /** An item mark: tried first inside its anchor's corners. */
  inside?: boolean;
  /** Keys of the marks it may cover (its own place's square). */
  mayCover?: string[];
}

/** Where a label went: its box, which of its forms, and which spot around its anchor. */
export interface Placed extends Box {
  variant: number;
  spot: number;
}

export interface Placement {
  placed: Map<string, Placed>;
  dropped: string[];
}

export interface PlacementInput<L extends Label> {
  bounds: Box;
  marks: Box[];
  labels: L[];
  /** How much of a box lies on what is better left uncovered (walls, water), in square pixels. */
  soft?: (box: Box) => number;
  /** Where each label was placed in the last frame. */
  previous?: Map<string, Placed>;
}

/** Pixels left between a label and what it names. */
const GAP = 1;
/** Costs that order the choices: a clean spot beats a shorter text, which beats covering walls. */
const SHORTER_COST = 100;
const SOFT_COST = 1000;
/** A label that still fits where it was stays there, unless a clearly better spot opens. */
const STAY_BONUS = 50;

/** The side of the squares the taken boxes are filed under: a spot is checked against its squares' boxes only. */
const BUCKET_PX = 48;

export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

const within = (box: Box, bounds: Box): boolean =>
  box.x >= bounds.x &&
  box.y >= bounds.y &&
  box.x + box.w <= bounds.x + bounds.w &&
  box.y + box.h <= bounds.y + bounds.h;

/**
 * The spots outside an anchor, in the order they are tried, as [x, y] codes: x 0 centred, 1 to
 * its right, 2 to its left, 3 flush with its right side, 4 flush with its left side; y 0 above,
 * 1 below, 2 centred, 3 flush with its top, 4 flush with its bottom, 5 and 6 one label further
 * above and below.
 */
const OUTSIDE_SPOTS: readonly (readonly [number, number])[] = [
  [0, 0],
  [0, 1],
  [1, 2],
  [2, 2],
  [3, 0],
  [4, 0],
  [3, 1],
  [4, 1],
  [1, 3],
  [2, 3],
  [1, 4],
  [2, 4],
  [1, 0],
  [2, 0],
  [1, 1],
  [2, 1],
  [0, 5],
  [0, 6],
  [3, 5],
  [4, 5],
  [3, 6],
  [4, 6],
];

/**
 * Where a w×h box may go around an anchor, best first: `inside` puts it first in the anchor's own
 * corners (an item mark within its cell); then beside the anchor, centred on each side; above and
 * below flush with one side (clear of what lies just past the other); beside it flush with its
 * top or bottom; at its corners; and one label further out above and below. Sets `out` to the
 * i-th spot, false when there is none: spots are tried by the thousand each frame, and no box is
 * allocated for one until it is chosen.
 */
function spotInto(
  out: Box,
  anchor: Box,
  w: number,
  h: number,
  inside: boolean | undefined,
  i: number,
): boolean {
  const { x, y } = anchor;
  const right = x + anchor.w;
  const bottom = y + anchor.h;
  const cx = x + (anchor.w - w) / 2;
  const cy = y + (anchor.h - h) / 2;
  const above = y - h - GAP;
  const below = bottom + GAP;
  const toRight = right + GAP;
  const toLeft = x - w - GAP;
  let at = i;
  if (inside) at -= 4;
  let sx: number;
  let sy: number;
  if (at < 0) {
    sx = (at + 4) % 2 === 0 ? x + GAP : right - w - GAP;
    sy = at + 4 < 2 ? bottom - h - GAP : y + GAP;
  } else {
    const spot = OUTSIDE_SPOTS[at];
    if (!spot) return false;
    const xs = [cx, toRight, toLeft, right - w, x];
    const ys = [above, below, cy, y, bottom - h, above - h, below + h];
    sx = xs[spot[0]]!;
    sy = ys[spot[1]]!;
  }
  out.x = Math.round(sx);
  out.y = Math.round(sy);
  out.w = w;
  out.h = h;
  return true;
}

/** The boxes taken so far, filed by the squares of a grid they touch. */
class TakenBoxes {
  private readonly buckets = new Map<number, Box[]>();

  add(box: Box): void {
    const x1 = Math.floor((box.x + box.w) / BUCKET_PX);
    const y1 = Math.floor((box.y + box.h) / BUCKET_PX);
    for (let y = Math.floor(box.y / BUCKET_PX); y <= y1; y++)
      for (let x = Math.floor(box.x / BUCKET_PX); x <= x1; x++) {
        // Squares are numbered row by row; a spot off the bounds' left or top gets its own numbers.
        const square = y * 65536 + x;
        const list = this.buckets.get(square);
        if (list) list.push(box);
        else this.buckets.set(square, [box]);
      }
  }

  /** Whether the spot covers a taken box, other than those whose keys `allowed` holds. */
  hit(spot: Box, allowed: Set<string> | null): boolean {
    const x1 = Math.floor((spot.x + spot.w) / BUCKET_PX);
    const y1 = Math.floor((spot.y + spot.h) / BUCKET_PX);
    for (let y = Math.floor(spot.y / BUCKET_PX); y <= y1; y++)
      for (let x = Math.floor(spot.x / BUCKET_PX); x <= x1; x++) {
        const list = this.buckets.get(y * 65536 + x);
        if (!list) continue;
        for (const box of list) {
          if (overlaps(spot, box) && !(allowed && box.key !== undefined && allowed.has(box.key))) return true;
        }
      }
    return false;
  }
}

/** How many times the labels are placed again, those that found no place first, while any is dropped. */
const RETRIES = 3;

/**
 * A place for each label, in the order given, covering no mark and no label placed before it.
 * When some find none, they go first in another pass (an earlier label usually has a spot it can
 * give up for a shorter form or another side), and the pass that drops fewest is kept.
 */
export function placeLabels<L extends Label>(input: PlacementInput<L>): Placement {
  let best = placeInOrder(input, input.labels);
  for (let pass = 0; pass < RETRIES && best.dropped.length > 0; pass++) {
    const first = new Set(best.dropped);
    const order = [
      ...input.labels.filter((l) => first.has(l.key)),
      ...input.labels.filter((l) => !first.has(l.key)),
    ];
    const next = placeInOrder(input, order);
    if (next.dropped.length < best.dropped.length) best = next;
    else break;
  }
  return best;
}

function placeInOrder<L extends Label>(
  { bounds, marks, soft = () => 0, previous = new Map() }: PlacementInput<L>,
  labels: L[],
): Placement {
  const taken = new TakenBoxes();
  for (const mark of marks) taken.add(mark);
  const placed = new Map<string, Placed>();
  const dropped: string[] = [];
  const spot: Box = { x: 0, y: 0, w: 0, h: 0 };
  for (const label of labels) {
    const allowed = label.mayCover ? new Set(label.mayCover) : null;
    const was = previous.get(label.key);
    let best: Placed | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    const consider = (v: number, c: number): void => {
      let cost = v * SHORTER_COST + c;
      if (was && was.variant === v && was.spot === c) cost -= STAY_BONUS;
      if (cost >= bestCost || !within(spot, bounds) || taken.hit(spot, allowed)) return;
      const covered = soft(spot);
      if (covered > 0) cost += SOFT_COST + covered;
      if (cost < bestCost) {
        best = { x: spot.x, y: spot.y, w: spot.w, h: spot.h, variant: v, spot: c };
        bestCost = cost;
      }
    };
    // Where it was first: still free, it usually wins, and then nothing else need be tried.
    const wasVariant = was && label.variants[was.variant];
    if (wasVariant && spotInto(spot, label.anchor, wasVariant.w, wasVariant.h, label.inside, was.spot))
      consider(was.variant, was.spot);
    label.variants.forEach((variant, v) => {
      if (v * SHORTER_COST - STAY_BONUS >= bestCost) return;
      for (let c = 0; spotInto(spot, label.anchor, variant.w, variant.h, label.inside, c); c++)
        consider(v, c);
    });
    if (!best) {
      dropped.push(label.key);
      continue;
    }
    placed.set(label.key, best);
    taken.add(best);
  }
  return { placed, dropped };
}

/**
 * Shorter forms of a name, longest first: without a leading "the", then its first word, then cut
 * to a few letters ("the supply depot" → "supply depot" → "supply" → "sup…"). A name that ends
 * in a short mark that tells it from its siblings keeps the mark ("north lever 1" → "north 1" →
 * "n1"): "north" alone would name three levers.
 */
export function shortenings(name: string): string[] {
  const forms = [name];
  const add = (form: string): void => {
    if (form && form.length < forms.at(-1)!.length) forms.push(form);
  };
  const bare = name.replace(/^the\s+/i, "");
  add(bare);
  const words = bare.split(/\s+/);
  const first = words[0]!;
  const last = words.at(-1)!;
  const mark = words.length > 1 && last.length <= 2 ? last : "";
  if (mark) {
    add(`${first} ${mark}`);
    add(`${first[0]}${mark}`);
    return forms;
  }
  add(first);
  add(`${bare.slice(0, 3)}…`);
  return forms;
}

/** How many pairs of the boxes overlap (a measure for tests and benchmarks). */
export function overlapCount(boxes: Box[]): number {
  let count = 0;
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i]!, boxes[j]!)) count++;
  return count;
}
