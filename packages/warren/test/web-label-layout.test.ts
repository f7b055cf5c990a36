import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Box,
  type Label,
  overlapCount,
  overlaps,
  placeLabels,
  shortenings,
} from "../src/web/page/label-layout.js";

const bounds = { x: 0, y: 0, w: 400, h: 300 };
const cell = (x: number, y: number, key?: string): Box => ({ x: x * 40, y: y * 40, w: 40, h: 40, key });
const named = (key: string, anchor: Box, ...widths: number[]): Label => ({
  key,
  anchor,
  variants: widths.map((w) => ({ w, h: 14 })),
});

describe("label placement", () => {
  it("puts a lone label above its anchor, centred", () => {
    const { placed, dropped } = placeLabels({
      bounds,
      marks: [cell(3, 3)],
      labels: [named("a", cell(3, 3), 60)],
    });
    assert.deepEqual(dropped, []);
    assert.deepEqual(placed.get("a"), { x: 110, y: 105, w: 60, h: 14, variant: 0, spot: 0 });
  });

  it("never covers a mark or another label: crowded anchors take the other sides", () => {
    const marks = [cell(3, 3), cell(4, 3), cell(3, 4), cell(4, 4)];
    const labels = marks.map((m, i) => named(`l${i}`, m, 70));
    const { placed, dropped } = placeLabels({ bounds, marks, labels });
    assert.deepEqual(dropped, []);
    const boxes = [...marks, ...placed.values()];
    assert.equal(overlapCount(boxes), 0);
    // Each label still touches the neighbourhood of its own anchor.
    for (const [i, m] of marks.entries()) {
      const at = placed.get(`l${i}`)!;
      assert.ok(
        overlaps({ x: m.x - 80, y: m.y - 30, w: m.w + 160, h: m.h + 60 }, at),
        `l${i} near its anchor`,
      );
    }
  });

  it("stays inside the bounds: an anchor at the top edge gets its label below", () => {
    const { placed } = placeLabels({ bounds, marks: [cell(0, 0)], labels: [named("a", cell(0, 0), 30)] });
    const at = placed.get("a")!;
    assert.ok(at.y >= 41 && at.x >= 0, JSON.stringify(at));
  });

  it("takes a shorter form before covering what is better left uncovered, and covers it before dropping", () => {
    // Everything but a column at x 40..80 is "water": the long form fits nowhere dry.
    const water = (box: Box): number => {
      const dry = Math.max(0, Math.min(box.x + box.w, 80) - Math.max(box.x, 40));
      return box.w - dry;
    };
    const anchor = { x: 40, y: 100, w: 40, h: 40 };
    const short = placeLabels({
      bounds,
      marks: [anchor],
      labels: [named("a", anchor, 120, 40)],
      soft: water,
    });
    assert.equal(short.placed.get("a")!.variant, 1, "the short form, on dry ground");
    assert.equal(water(short.placed.get("a")!), 0);
    const wet = placeLabels({ bounds, marks: [anchor], labels: [named("a", anchor, 120)], soft: water });
    assert.equal(wet.placed.get("a")!.variant, 0, "the only form, over water");
    assert.deepEqual(wet.dropped, []);
  });

  it("drops a label only when no form of it fits anywhere around its anchor", () => {
    const marks = [{ x: 0, y: 0, w: 400, h: 300 }];
    const { placed, dropped } = placeLabels({ bounds, marks, labels: [named("a", cell(3, 3), 30, 10)] });
    assert.equal(placed.size, 0);
    assert.deepEqual(dropped, ["a"]);
  });

  it("places again, the dropped label first, when an earlier label took its only spot but had another", () => {
    // A bar across the top, a row of marks along the bottom but for b's anchor: one free band between.
    const band = { x: 0, y: 0, w: 120, h: 60 };
    const a = { x: 0, y: 0, w: 120, h: 20 };
    const b = { x: 50, y: 40, w: 20, h: 20 };
    const marks = [a, b, { x: 0, y: 40, w: 50, h: 20 }, { x: 70, y: 40, w: 50, h: 20 }];
    // In order, a's long form takes the band and b's label (one form, above its anchor only) fits nowhere.
    const labels = [named("a", a, 100, 20), named("b", b, 60)];
    const { placed, dropped } = placeLabels({ bounds: band, marks, labels });
    assert.deepEqual(dropped, []);
    assert.equal(placed.get("a")!.variant, 1, "a took its short form");
    assert.equal(overlapCount([...marks, ...placed.values()]), 0);
  });

  it("puts an item mark inside its cell first, over its own place's square only", () => {
    const place = { ...cell(2, 2), key: "place:p" };
    const item = (mayCover?: string[]): Label => ({
      key: "item",
      anchor: cell(2, 2),
      variants: [{ w: 8, h: 8 }],
      inside: true,
      mayCover,
    });
    const own = placeLabels({ bounds, marks: [place], labels: [item(["place:p"])] });
    assert.deepEqual(own.placed.get("item"), { x: 81, y: 111, w: 8, h: 8, variant: 0, spot: 0 });
    const other = placeLabels({ bounds, marks: [place], labels: [item()] });
    assert.ok(!overlaps(other.placed.get("item")!, place), "no leave to cover it: outside the square");
  });

  it("keeps a label where it was while it still fits there", () => {
    const anchor = cell(3, 3);
    const previous = new Map([["a", { x: 110, y: 161, w: 60, h: 14, variant: 0, spot: 1 }]]);
    const { placed } = placeLabels({ bounds, marks: [anchor], labels: [named("a", anchor, 60)], previous });
    assert.deepEqual(placed.get("a"), previous.get("a"), "below, where it was, not above");
  });

  it("shortens a name step by step, each form shorter than the one before, keeping a sibling's mark", () => {
    assert.deepEqual(shortenings("the supply depot"), ["the supply depot", "supply depot", "supply", "sup…"]);
    assert.deepEqual(shortenings("Sam the engineer"), ["Sam the engineer", "Sam"]);
    assert.deepEqual(shortenings("pen"), ["pen"]);
    // The mark that tells siblings apart stays.
    assert.deepEqual(shortenings("north lever 1"), ["north lever 1", "north 1", "n1"]);
    assert.deepEqual(shortenings("house A"), ["house A", "hA"]);
  });
});
