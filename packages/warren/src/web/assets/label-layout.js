// Label placement: given the marks on a map and the labels to show, a position for each label that
// covers no mark and no other label. Pure, no DOM: the map calls it every drawn frame, and Node
// tests load it as it is. Boxes are {x, y, w, h} in CSS pixels.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});

  /** Pixels left between a label and what it names. */
  const GAP = 1;
  /** Costs that order the choices: a clean spot beats a shorter text, which beats covering walls. */
  const SHORTER_COST = 100;
  const SOFT_COST = 1000;
  /** A label that still fits where it was stays there, unless a clearly better spot opens. */
  const STAY_BONUS = 50;

  const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

  const within = (box, bounds) =>
    box.x >= bounds.x &&
    box.y >= bounds.y &&
    box.x + box.w <= bounds.x + bounds.w &&
    box.y + box.h <= bounds.y + bounds.h;

  /**
   * Where a w×h box may go around an anchor, best first: `inside` puts it first in the anchor's own
   * corners (an item mark within its cell); then beside the anchor on each side, above and below
   * flush with either side, beside it flush with its top or bottom, at its corners, and one label further out above and below.
   */
  function candidates(anchor, w, h, inside) {
    const { x, y } = anchor;
    const right = x + anchor.w;
    const bottom = y + anchor.h;
    const cx = x + (anchor.w - w) / 2;
    const cy = y + (anchor.h - h) / 2;
    const spots = [];
    if (inside) {
      spots.push([x + GAP, bottom - h - GAP], [right - w - GAP, bottom - h - GAP]);
      spots.push([x + GAP, y + GAP], [right - w - GAP, y + GAP]);
    }
    spots.push(
      [cx, y - h - GAP],
      [cx, bottom + GAP],
      [right + GAP, cy],
      [x - w - GAP, cy],
      // Above and below, flush with one side: clear of what lies just past the other side.
      [right - w, y - h - GAP],
      [x, y - h - GAP],
      [right - w, bottom + GAP],
      [x, bottom + GAP],
      // Beside it, flush with its top or its bottom.
      [right + GAP, y],
      [x - w - GAP, y],
      [right + GAP, bottom - h],
      [x - w - GAP, bottom - h],
      [right + GAP, y - h - GAP],
      [x - w - GAP, y - h - GAP],
      [right + GAP, bottom + GAP],
      [x - w - GAP, bottom + GAP],
      [cx, y - 2 * h - GAP],
      [cx, bottom + h + GAP],
      [right - w, y - 2 * h - GAP],
      [x, y - 2 * h - GAP],
      [right - w, bottom + h + GAP],
      [x, bottom + h + GAP],
    );
    return spots.map(([sx, sy]) => ({ x: Math.round(sx), y: Math.round(sy), w, h }));
  }

  /**
   * Places labels one after another, in the order given (the first ones get the best spots).
   *   bounds: the box every label must stay inside.
   *   marks: [{x, y, w, h, key?}]: what no label may cover (a label's `mayCover` names the keys it
   *     may: an item mark lies on its own place's square).
   *   labels: [{key, anchor, variants: [{w, h, …}], inside?, mayCover?: [key]}], each variant a
   *     shorter form of the one before it (full name, then abbreviated, then stacked or counted).
   *   soft(box): how much of what is better left uncovered (walls, water) the box covers, 0 if none.
   *   previous: Map key → {x, y, variant}, where each label was last time: it stays while it fits.
   * Returns {placed: Map key → {x, y, w, h, variant}, dropped: [key]}: a label is dropped only when
   * no form of it fits anywhere around its anchor.
   */
  function placeLabels({ bounds, marks, labels, soft = () => 0, previous = new Map() }) {
    const taken = marks.slice();
    const placed = new Map();
    const dropped = [];
    for (const label of labels) {
      const allowed = label.mayCover ? new Set(label.mayCover) : null;
      const was = previous.get(label.key);
      let best = null;
      let bestCost = Number.POSITIVE_INFINITY;
      label.variants.forEach((variant, v) => {
        candidates(label.anchor, variant.w, variant.h, label.inside).forEach((spot, c) => {
          let cost = v * SHORTER_COST + c;
          if (was && was.variant === v && was.x === spot.x && was.y === spot.y) cost -= STAY_BONUS;
          if (cost >= bestCost || !within(spot, bounds)) return;
          for (const box of taken) {
            if (overlaps(spot, box) && !(allowed && box.key !== undefined && allowed.has(box.key))) return;
          }
          const covered = soft(spot);
          if (covered > 0) cost += SOFT_COST + covered;
          if (cost < bestCost) {
            best = { ...spot, variant: v };
            bestCost = cost;
          }
        });
      });
      if (!best) {
        dropped.push(label.key);
        continue;
      }
      placed.set(label.key, best);
      taken.push(best);
    }
    return { placed, dropped };
  }

  /**
   * Shorter forms of a name, longest first: without a leading "the", then its first word, then cut
   * to a few letters ("the supply depot" → "supply depot" → "supply" → "sup…"). A name that ends
   * in a short mark that tells it from its siblings keeps the mark ("north lever 1" → "north 1" →
   * "n1"): "north" alone would name three levers.
   */
  function shortenings(name) {
    const forms = [name];
    const add = (form) => {
      if (form && form.length < forms.at(-1).length) forms.push(form);
    };
    const bare = name.replace(/^the\s+/i, "");
    add(bare);
    const words = bare.split(/\s+/);
    const mark = words.length > 1 && words.at(-1).length <= 2 ? words.at(-1) : "";
    if (mark) {
      add(`${words[0]} ${mark}`);
      add(`${words[0][0]}${mark}`);
      return forms;
    }
    add(words[0]);
    add(`${bare.slice(0, 3)}…`);
    return forms;
  }

  /** How many pairs of the boxes overlap (a measure for tests and benchmarks). */
  function overlapCount(boxes) {
    let count = 0;
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i], boxes[j])) count++;
    return count;
  }

  viewer.labelLayout = { placeLabels, shortenings, overlaps, overlapCount };
})();
