/**
 * roost web's page under load: 1,000 rows, 1,000 changes a second pushed through `roost web` (as
 * built) to a page in Debian's chromium, headless, through playwright-core. The daemon is a scripted
 * stand-in on the home's socket (it answers the ops `roost web` asks and pushes the rows' changes), so
 * the CPU measured is `roost web`'s own. Prints the page's frame intervals (requestAnimationFrame),
 * `roost web`'s share of a core, the bytes sent on the push channel a change, and how long the page
 * takes to draw its rows; each beside a floor measured in the same run: an empty page's frame
 * intervals before and after, `roost web`'s CPU with no page open, the bytes of a change on the
 * daemon's socket.
 *   node --import tsx bench/web.ts   (--quick: 5 s windows)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../warren/test/helpers/browser.js";
import { encodeLine } from "../src/protocol/framing.js";
import type { JobRow } from "../src/protocol/rows.js";
import { ScriptedDaemon } from "../test/fixtures/client-fake-daemon.js";
import { CLI } from "../test/helpers/built-cli.js";
import { jobRow } from "../test/helpers/job-row.js";
import { cpuSeconds } from "./process-cpu.js";

const ROWS = 1000;
const CHANGES_PER_S = 1000;
/** Changes are pushed in batches this often (a timer fires no faster than a millisecond or so). */
const BATCH_MS = 10;
const QUICK = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
/** Wall seconds of each window measured. */
const MEASURE_S = QUICK ? 5 : 15;
const FLOOR_S = QUICK ? 3 : 5;
const WARM_S = 2;
const GOALS = { frameP95Ms: 20, cpuShare: 0.2, readyMs: 1000 };
/** An empty page that only records its frame intervals: the floor. */
const FRAME_RECORDER = `
  globalThis.frameTimes = [];
  let last = performance.now();
  const frame = (now) => { frameTimes.push(now - last); last = now; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

function quantiles(values: number[]): { p50: number; p95: number; text: string } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    p50: at(0.5),
    p95: at(0.95),
    text: `p50 ${at(0.5).toFixed(1)} ms  p95 ${at(0.95).toFixed(1)} ms  p99 ${at(0.99).toFixed(1)} ms  max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (${sorted.length} frames)`,
  };
}

/** Row `i` as the stand-in daemon has it after `step` changes: every eleventh waits with a question. */
function fleetRow(i: number, step: number): JobRow {
  const waiting = i % 11 === 0;
  return jobRow(`job-${String(i).padStart(4, "0")}`, {
    name: `agent-${i}`,
    cwd: `/srv/project-${i % 7}`,
    summary: `step ${step} of agent ${i}: editing src/module-${i % 50}.ts`,
    state: waiting ? "blocked" : "working",
    waitingFor: waiting ? "question" : null,
    question: waiting ? `Proceed with step ${step}?` : null,
    choices: waiting ? ["yes", "no"] : [],
    order: i,
    updatedAt: new Date().toISOString(),
  });
}

if (!existsSync(CHROMIUM)) {
  console.error(`bench/web.ts needs Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  process.exit(1);
}

const daemon = await new ScriptedDaemon().listen();
daemon.answer = (request) => {
  if (request.op === "subscribe")
    return { result: { rows: [...Array(ROWS).keys()].map((i) => fleetRow(i, 0)) } };
  if (request.op === "events") return { result: { events: [], cursor: 0 } };
  if (request.op === "task") return { result: { tasks: [] } };
  if (request.op === "concierge") return { code: "unsupported", error: "no concierge here" };
  return {
    result: request.op === "hello" ? { protocol: 1, daemon: { name: "roost", version: "bench" } } : {},
  };
};
const home = mkdtempSync(join(tmpdir(), "roost-bench-web-"));
mkdirSync(join(home, "roost"), { mode: 0o700 });
symlinkSync(daemon.socketPath, join(home, "roost", "daemon.sock"));

const web: ChildProcess = spawn(process.execPath, [CLI, "web", "--port", "0"], {
  env: { ...process.env, ROOST_HOME: home },
  stdio: ["ignore", "pipe", "inherit"],
});
let printed = "";
web.stdout!.on("data", (chunk) => (printed += chunk));
const url = await (async () => {
  for (let i = 0; i < 600; i++) {
    const found = /open (http:\/\/\S+)/.exec(printed)?.[1];
    if (found) return found;
    await sleep(50);
  }
  throw new Error(`roost web printed no address: ${printed}`);
})();

/** Pushes CHANGES_PER_S row changes a second to `roost web`, round the rows; returns how many so far. */
let pushed = 0;
let lineBytes = 0;
let pusher: NodeJS.Timeout | undefined;
const startPushing = () => {
  let due = performance.now();
  pusher = setInterval(() => {
    const now = performance.now();
    while (due <= now) {
      for (let n = 0; n < (CHANGES_PER_S * BATCH_MS) / 1000; n++) {
        const event = { event: "row", row: fleetRow(pushed % ROWS, pushed) };
        lineBytes += Buffer.byteLength(encodeLine(event));
        daemon.send(event);
        pushed++;
      }
      due += BATCH_MS;
    }
  }, BATCH_MS);
};
const stopPushing = () => clearInterval(pusher);

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
const frames = (page: Page) => page.evaluate("globalThis.frameTimes.slice(1)") as Promise<number[]>;
/** An empty page's frame intervals over FLOOR_S seconds. */
const floor = async () => {
  const empty = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await empty.setContent(`<script>${FRAME_RECORDER}</script>`);
  await sleep(FLOOR_S * 1000);
  const measured = await frames(empty);
  await empty.close();
  return quantiles(measured);
};
/** `roost web`'s CPU as a share of one core over `seconds`. */
const cpuShare = async (seconds: number) => {
  const before = cpuSeconds(web.pid!);
  const started = performance.now();
  await sleep(seconds * 1000);
  return (cpuSeconds(web.pid!) - before) / ((performance.now() - started) / 1000);
};

try {
  const date = new Date().toISOString();
  const loadBefore = load();
  const floorBefore = await floor();
  // roost web with no page: its subscription alone, the changes coming at the same rate.
  startPushing();
  await sleep(WARM_S * 1000);
  const cpuAlone = await cpuShare(MEASURE_S);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(FRAME_RECORDER);
  const page = await context.newPage();
  let channelBytes = 0;
  let channelFrames = 0;
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      channelBytes += Buffer.byteLength(payload);
      channelFrames++;
    }),
  );
  const opened = performance.now();
  await page.goto(url);
  await page.locator(`.rows > .row:nth-child(${ROWS})`).waitFor();
  const readyMs = performance.now() - opened;
  const loadedMs = (await page.evaluate(
    'performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd',
  )) as number;
  await sleep(WARM_S * 1000);

  // The renderer's main thread, from chromium's own counters: its CPU time, whatever else runs on the machine.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
    ) as Record<string, number>;
  const metricsBefore = await metrics();
  await page.evaluate("globalThis.frameTimes.length = 0");
  const bytesBefore = channelBytes;
  const framesBefore = channelFrames;
  const pushedBefore = pushed;
  const lineBytesBefore = lineBytes;
  const cpuWithPage = await cpuShare(MEASURE_S);
  const pageFrames = quantiles(await frames(page));
  const metricsAfter = await metrics();
  /** Milliseconds of a counter a second of the window. */
  const perSecond = (name: string) =>
    ((metricsAfter[name]! - metricsBefore[name]!) * 1000) /
    (metricsAfter.Timestamp! - metricsBefore.Timestamp!);
  const changes = pushed - pushedBefore;
  const perChange = (channelBytes - bytesBefore) / changes;
  const linePerChange = (lineBytes - lineBytesBefore) / changes;
  const shownStep = await page.locator(".rows > .row").first().locator(".says").textContent();
  stopPushing();
  await context.close();
  const floorAfter = await floor();
  const loadAfter = load();

  const verdict = (ok: boolean) => (ok ? "(goal met)" : "(goal NOT met)");
  console.log(`roost web: ${ROWS} rows, ${CHANGES_PER_S} changes a second, ${MEASURE_S} s windows — ${date}`);
  console.log(`  load average before ${loadBefore}, after ${loadAfter}`);
  console.log(
    `  page ready (rows drawn)       ${readyMs.toFixed(0)} ms ${verdict(readyMs < GOALS.readyMs)}; its script had run at ${loadedMs.toFixed(0)} ms`,
  );
  console.log(
    `  frame interval, the page      ${pageFrames.text} ${verdict(pageFrames.p95 < GOALS.frameP95Ms)}`,
  );
  console.log(`  floor: an empty page, before  ${floorBefore.text}`);
  console.log(`  floor: an empty page, after   ${floorAfter.text}`);
  const floorP50 = Math.max(floorBefore.p50, floorAfter.p50);
  const floorP95 = Math.max(floorBefore.p95, floorAfter.p95);
  console.log(
    `  the page against the floor    p50 ${(pageFrames.p50 / floorP50).toFixed(2)}×  p95 ${(pageFrames.p95 / floorP95).toFixed(2)}× (the worse of the two floors)`,
  );
  console.log(
    `  the page's main thread        ${perSecond("ThreadTime").toFixed(0)} ms CPU a second: script ${perSecond("ScriptDuration").toFixed(0)} ms, style ${perSecond("RecalcStyleDuration").toFixed(0)} ms, layout ${perSecond("LayoutDuration").toFixed(0)} ms (wall time of each, a second)`,
  );
  console.log(
    `  roost web CPU, a page open    ${(cpuWithPage * 100).toFixed(1)} % of a core ${verdict(cpuWithPage < GOALS.cpuShare)}`,
  );
  console.log(
    `  floor: no page open           ${(cpuAlone * 100).toFixed(1)} % of a core (the page adds ${((cpuWithPage - cpuAlone) * 100).toFixed(1)} points)`,
  );
  console.log(
    `  push channel                  ${perChange.toFixed(0)} bytes a change (${((channelFrames - framesBefore) / changes).toFixed(2)} messages a change), ${changes} changes`,
  );
  console.log(
    `  floor: the daemon's socket    ${linePerChange.toFixed(0)} bytes a change (${(perChange / linePerChange).toFixed(2)}×)`,
  );
  console.log(`  the first row said, at the end: ${shownStep}`);
} finally {
  stopPushing();
  await browser.close();
  web.kill("SIGTERM");
  await daemon.dispose();
  rmSync(home, { recursive: true, force: true });
}
