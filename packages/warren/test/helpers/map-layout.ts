/**
 * The viewer's maps measured in a real browser, at one window size per test file (each file's time
 * stays well inside the per-file limit): every scenario, at every event from start to end, with
 * every label and mark clear of the others, off the walls, placed, and inside the window.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { bundledScenarios } from "../../src/server/index.js";
import { browserForSuite, browserMissing } from "./browser.js";
import { serverForSuite } from "./server.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
/** Screenshots for people to look at (git-ignored), one per scenario and window size. */
const outputDir = join(packageDir, "test-output", "viewer");
const skip = browserMissing || undefined;

interface Measure {
  /** Pairs of a label or an item mark with anything else on the map that it covers, described. */
  overlaps: string[];
  /** Labels that cover a wall or water cell (and were not walled in), described. */
  onWalls: string[];
  labels: number;
  /** Labels that found no place, by key. */
  dropped: string[];
  /** Labels and marks that reach past the window, described. */
  outside: string[];
  /** The map's canvas in the window, and the window. */
  map: { left: number; top: number; right: number; bottom: number };
  window: { width: number; height: number };
}

/**
 * In the page: the bounding boxes of every mark and label element over the maps, and which of them
 * overlap. Tokens may lie on one another and on their place's square (that is where the agents
 * stand), and an item mark on its own place's square; nothing else may overlap anything.
 */
const MEASURE = `(() => {
  const view = globalThis.WarrenViewer.page;
  const found = { overlaps: [], onWalls: [], labels: 0, dropped: [], outside: [] };
  for (const map of view.map.maps) {
    if (!map.marks) continue;
    found.dropped.push(...map.marks.dropped);
    const boxes = [...map.marks.layer.children].map((e) => {
      const r = e.getBoundingClientRect();
      return { e, kind: e.className.split(" ")[0], key: e.dataset.key, cell: e.dataset.cell, x: r.x, y: r.y, w: r.width, h: r.height };
    });
    // Half a pixel of rounding: boxes that only touch do not overlap.
    const overlap = (a, b) => a.x + 0.5 < b.x + b.w && b.x + 0.5 < a.x + a.w && a.y + 0.5 < b.y + b.h && b.y + 0.5 < a.y + a.h;
    const allowed = (a, b) => {
      const kinds = [a.kind, b.kind].sort().join(" ");
      if (kinds === "map-token map-token" || kinds === "map-place map-token") return true;
      return kinds === "map-item map-place" && a.cell === b.cell;
    };
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        if (overlap(boxes[i], boxes[j]) && !allowed(boxes[i], boxes[j]))
          found.overlaps.push(boxes[i].key + " over " + boxes[j].key);
    const canvas = map.canvas.getBoundingClientRect();
    const { space, cell } = map;
    // A label may lie on a wall only where its place or agent is walled in on every side.
    const blocked = (x, y) => x < 0 || y < 0 || x >= space.width || y >= space.height || space.blocked[y * space.width + x];
    const walledIn = (key) => {
      const place = key.startsWith("label:place:") && view.model.places.get(key.slice("label:place:".length));
      const [x, y] = place ? [place.cellAt.x, place.cellAt.y] : key.slice("label:agents:".length).split(",").map(Number);
      if (!Number.isInteger(x) || !Number.isInteger(y)) return false;
      for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) if ((dx || dy) && !blocked(x + dx, y + dy)) return false;
      return true;
    };
    for (const b of boxes)
      if (b.x < 0 || b.y < 0 || b.x + b.w > innerWidth || b.y + b.h > innerHeight) found.outside.push(b.key);
    for (const b of boxes) {
      if (b.kind !== "map-label") continue;
      found.labels++;
      if (walledIn(b.key)) continue;
      for (let y = 0; y < space.height; y++)
        for (let x = 0; x < space.width; x++) {
          if (!space.blocked[y * space.width + x]) continue;
          const wall = { x: canvas.x + 1 + x * cell, y: canvas.y + 1 + y * cell, w: cell, h: cell };
          if (overlap(b, wall)) found.onWalls.push(b.key + " on " + x + "," + y);
        }
    }
  }
  const r = view.map.maps[0].canvas.getBoundingClientRect();
  found.map = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  found.window = { width: innerWidth, height: innerHeight };
  return found;
})()`;

/**
 * In the page: the run shown after each of its events in turn, from the start to the end (the end
 * last, as the page opens), each drawn once more at the moment sought, then measured; the measures
 * in order. One evaluation for the whole run: a round trip per event was most of the time.
 */
const EVERY_EVENT = `(async () => {
  const player = globalThis.WarrenViewer.page.player;
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const measures = [];
  for (let at = 0; at <= player.events.length; at++) {
    player.seek(at);
    // Two frames: the page draws in the first, and what a resize of its header refits, in the second.
    await frame();
    await frame();
    measures.push(${MEASURE});
  }
  return measures;
})()`;

export function mapLayoutSuite(width: number, height: number): void {
  const live = serverForSuite();
  const suite = browserForSuite();
  describe(`the maps in a browser at ${width}×${height}: every label and mark clear of the others, the map inside the window`, {
    skip,
  }, () => {
    const runs = new Map<string, string>();
    before(async () => {
      mkdirSync(outputDir, { recursive: true });
      if (skip) return;
      for (const scenario of bundledScenarios.list()) {
        const hosted = live.server.registry.create(scenario.name, 3, {});
        await hosted.run.whenEnded();
        runs.set(scenario.name, hosted.run.id);
      }
    });

    /** One scenario's run, in a page of its own, at every event; its line of the report. */
    async function checkScenario(scenario: string, runId: string): Promise<string> {
      const page = await suite.browser.newPage({ viewport: { width, height } });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${live.url}/runs/${runId}`);
      await page.waitForFunction("globalThis.WarrenViewer?.page?.mode === 'replay'", undefined, {
        polling: 50,
      });
      const measures = (await page.evaluate(EVERY_EVENT)) as Measure[];
      const events = measures.length - 1;
      for (const [at, seen] of measures.entries()) {
        const where = `${scenario} at event ${at} of ${events}, ${width}×${height}`;
        assert.ok(seen.labels > 0, `${where}: labels are shown`);
        assert.deepEqual(seen.overlaps, [], `${where}: overlaps`);
        assert.deepEqual(seen.onWalls, [], `${where}: labels on walls`);
        assert.deepEqual(seen.dropped, [], `${where}: every label found a place`);
        assert.deepEqual(seen.outside, [], `${where}: labels and marks inside the window`);
        assert.ok(
          seen.map.left >= 0 &&
            seen.map.top >= 0 &&
            seen.map.right <= seen.window.width &&
            seen.map.bottom <= seen.window.height,
          `${where}: the map ${JSON.stringify(seen.map)} lies inside the window ${JSON.stringify(seen.window)}`,
        );
      }
      // The header is redrawn a few times a second: shown at the end too before the picture.
      await page.waitForFunction(
        "document.querySelector('#sim-clock').textContent === 'sim t=' + Math.round(WarrenViewer.page.model.simTime) / 1000 + 's'",
        undefined,
        { polling: 50 },
      );
      await page.screenshot({ path: join(outputDir, `${scenario}-${width}x${height}.png`) });
      assert.deepEqual(errors, [], `${scenario}: no script error`);
      await page.close();
      return `${scenario}: ${measures.at(-1)!.labels} labels, 0 overlaps`;
    }

    it(`at ${width}×${height}: in every scenario, from start to end, no overlap, no label on a wall, the whole map seen`, async () => {
      assert.equal(runs.size, 6, "six scenarios");
      // A page per scenario, all at once: the frames they wait for overlap.
      const report = await Promise.all([...runs].map(([scenario, runId]) => checkScenario(scenario, runId)));
      process.stderr.write(`${width}×${height}: ${report.join("; ")}\n`);
    });
  });
}
