/**
 * The viewer in a browser: frame times on a run page while a 1,000-agent stress run streams to it,
 * then on a 40-agent one drawn large enough to name every agent (its labels placed every frame),
 * and how long the page takes to load. Debian's chromium, headless, through playwright-core. The
 * machine may be busy with other work: a page doing nothing but count its frames, measured just
 * before and just after in the same browser, is the floor the viewer's figures stand on.
 *   node --import tsx bench/viewer.ts
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { chromium, type Page } from "playwright-core";
import { bundledScenarios, type ScenarioCatalog, startServer } from "../src/server/index.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../test/helpers/browser.js";
import { rendererCpu } from "./renderer-cpu.js";
import { stressScenario } from "./stress-scenario.js";

const AGENTS = 1000;
/** A second world small enough to name every agent, place and item: every frame places its labels. */
const LABELLED_AGENTS = 40;
/** Wall seconds of frames measured while the run streams. */
const MEASURE_S = 15;
/** Sim ms per wall ms: the walkers keep moving all through the measurement. */
const PACE = 1;
/** Wall seconds of frames measured on the labelled world's page. */
const LABELLED_S = 10;
/** Wall seconds of an empty page's frames, before and after. */
const FLOOR_S = 5;
/** Wall seconds the run page is traced for its CPU time, once its frames are measured. */
const CPU_S = 5;
/** An empty page that only records its frame intervals. */
const EMPTY_PAGE = `<script>
  globalThis.frameTimes = [];
  let last = performance.now();
  const frame = (now) => { frameTimes.push(now - last); last = now; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
</script>`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0]!.toFixed(1);

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): string =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  max ${sorted.at(-1)!.toFixed(1)} ms`;
}

const framesPerSecond = (frames: number[]): string =>
  (frames.length / (frames.reduce((a, b) => a + b, 0) / 1000)).toFixed(1);

if (!existsSync(CHROMIUM)) {
  console.error(`bench/viewer.ts needs Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  process.exit(1);
}

const stress = stressScenario(AGENTS, 3_600_000);
const labelled = stressScenario(LABELLED_AGENTS, 3_600_000);
const catalog: ScenarioCatalog = {
  find: (name) => [stress, labelled].find((s) => s.name === name) ?? bundledScenarios.find(name),
  list: () => bundledScenarios.list(),
};
const server = await startServer({ host: "127.0.0.1", port: 0 }, { scenarios: catalog });
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
try {
  /** Opens a run's page and waits until `ready` holds in it; returns the page and the time taken. */
  const open = async (runId: string, ready: string): Promise<{ page: Page; ms: number }> => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const started = performance.now();
    await page.goto(`${server.url}/runs/${runId}`);
    await page.waitForFunction(ready, undefined, { polling: 10 });
    return { page, ms: performance.now() - started };
  };
  /** The empty page's frame intervals over FLOOR_S seconds, and the load average then. */
  const floor = async (): Promise<string> => {
    const empty = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await empty.setContent(EMPTY_PAGE);
    await sleep(FLOOR_S * 1000);
    const frames = (await empty.evaluate("globalThis.frameTimes.slice(1)")) as number[];
    await empty.close();
    return `${quantiles(frames)}  (${framesPerSecond(frames)} frames/s, load average ${load()})`;
  };
  // A small ended run's page first, three times: how long until it is ready (the first time in a
  // fresh browser, then as a page opened again).
  const small = server.registry.create("bridge_repair", 1, {});
  await small.run.whenEnded();
  const smallMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const opened = await open(small.run.id, "globalThis.WarrenViewer?.page?.mode === 'replay'");
    smallMs.push(opened.ms);
    await opened.page.close();
  }
  const hosted = server.registry.create(stress.name, 1, { pace: PACE });
  const { page, ms: loadMs } = await open(
    hosted.run.id,
    "globalThis.WarrenViewer?.page?.map?.time !== undefined",
  );
  const floorBefore = await floor();
  const loadBefore = load();
  const cursorBefore = hosted.run.eventCursor;
  const drawsBefore = (await page.evaluate("globalThis.WarrenViewer.page.map.draws")) as number;
  await page.evaluate(
    "globalThis.WarrenViewer.page.frameTimes.length = globalThis.WarrenViewer.page.frameWork.length = 0",
  );
  await sleep(MEASURE_S * 1000);
  const frames = (await page.evaluate("globalThis.WarrenViewer.page.frameTimes.slice()")) as number[];
  const work = (await page.evaluate("globalThis.WarrenViewer.page.frameWork.slice()")) as number[];
  const shown = (await page.evaluate(
    "({ cursor: globalThis.WarrenViewer.page.model.cursor, lagged: globalThis.WarrenViewer.page.feed.lagged, draws: globalThis.WarrenViewer.page.map.draws })",
  )) as { cursor: number; lagged: number; draws: number };
  const runCursor = hosted.run.eventCursor;
  const loadAfter = load();
  const streamed = runCursor - cursorBefore;
  // Traced apart from the frames measured: tracing has a cost of its own.
  const cpu = await rendererCpu(browser, page, CPU_S);
  await page.close();
  // The labelled world: its 40 walkers named on the map, their labels placed again every frame
  // they move.
  const named = server.registry.create(labelled.name, 1, { pace: PACE });
  const { page: namedPage } = await open(
    named.run.id,
    "globalThis.WarrenViewer?.page?.map?.maps[0]?.marks?.elements.size > 0",
  );
  await namedPage.evaluate(
    "globalThis.WarrenViewer.page.frameTimes.length = globalThis.WarrenViewer.page.frameWork.length = 0",
  );
  await sleep(LABELLED_S * 1000);
  const namedFrames = (await namedPage.evaluate(
    "globalThis.WarrenViewer.page.frameTimes.slice()",
  )) as number[];
  const namedWork = (await namedPage.evaluate("globalThis.WarrenViewer.page.frameWork.slice()")) as number[];
  const namedShown = (await namedPage.evaluate(
    "(() => { const m = globalThis.WarrenViewer.page.map.maps[0]; return { cell: m.cell, labels: m.marks.layer.querySelectorAll('.map-label').length, dropped: m.marks.dropped.length, draws: globalThis.WarrenViewer.page.map.draws }; })()",
  )) as { cell: number; labels: number; dropped: number; draws: number };
  await namedPage.close();
  named.run.dispose("the benchmark is done");
  const floorAfter = await floor();
  const late = frames.filter((f) => f > 1000 / 50).length;
  console.log(`viewer with ${AGENTS} agents streaming (pace ${PACE}), ${MEASURE_S} s measured:`);
  console.log(
    `  bridge_repair run page, load to replay ready  ${smallMs.map((ms) => ms.toFixed(0)).join(", ")} ms`,
  );
  console.log(`  stress run page, load to first map frame     ${loadMs.toFixed(0)} ms`);
  console.log(
    `  events streamed               ${streamed} (${(streamed / MEASURE_S).toFixed(0)}/s), viewer at cursor ${shown.cursor} of ${runCursor}, lagged ${shown.lagged}`,
  );
  console.log(
    `  frame interval              ${quantiles(frames)}  (load average ${loadBefore} → ${loadAfter})`,
  );
  console.log(`  page's work in a frame      ${quantiles(work)}`);
  console.log(
    `  ${framesPerSecond(frames)} frames/s over ${frames.length} frames; ${late} frames slower than 20 ms; map redrawn ${((shown.draws - drawsBefore) / MEASURE_S).toFixed(1)} times/s`,
  );
  console.log(
    `  CPU a second, traced ${CPU_S} s  page main thread ${cpu.main.toFixed(0)} ms, its compositor ${cpu.compositor.toFixed(0)} ms, display compositor ${cpu.display.toFixed(0)} ms`,
  );
  console.log(
    `  labelled world (${LABELLED_AGENTS} agents, ${namedShown.cell}-pixel cells, ${namedShown.labels} labels, ${namedShown.dropped} dropped), ${LABELLED_S} s:`,
  );
  console.log(`    frame interval            ${quantiles(namedFrames)}`);
  console.log(`    page's work in a frame    ${quantiles(namedWork)}`);
  console.log(`    ${framesPerSecond(namedFrames)} frames/s over ${namedFrames.length} frames`);
  console.log(`  floor: an empty page, before ${floorBefore}`);
  console.log(`  floor: an empty page, after  ${floorAfter}`);
  hosted.run.dispose("the benchmark is done");
} finally {
  await browser.close();
  await server.close();
}
