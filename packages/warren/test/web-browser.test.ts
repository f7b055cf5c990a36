import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { WebSocket } from "ws";
import { browserForSuite, browserMissing, openPage } from "./helpers/browser.js";
import { catalogWithLoudYard, shout } from "./helpers/loud-yard.js";
import { call, runWithClaims, serverForSuite, waitFor } from "./helpers/server.js";
import { TcpProxy } from "./helpers/server-proxy.js";
import { warrenBin } from "./helpers/warren-process.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
/** Screenshots for people to look at (gitignored). */
const outputDir = join(packageDir, "test-output");
const live = serverForSuite();
const laggy = serverForSuite({ spectatorMaxBufferedBytes: 64 * 1024, scenarios: catalogWithLoudYard });
const suite = browserForSuite();
const skip = browserMissing || undefined;

type Digest = Record<string, unknown>;

/** Waits in the page until `predicate` (run in the page) holds. */
function until(page: Page, predicate: string, timeout = 30_000): Promise<unknown> {
  return page.waitForFunction(predicate, undefined, { timeout, polling: 50 });
}

// In-page code goes in as text: the test's compiled functions carry helpers the page lacks.
const VIEW = "globalThis.WarrenViewer.page";

function read<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

const digestOf = (page: Page): Promise<Digest> => read(page, `${VIEW}.model.digest()`);

interface Samples {
  cells: Record<string, string[]>;
  between: number;
  objectives: Record<string, string[]>;
}

/** Records, every frame, where each agent is drawn and each objective's status. */
function sample(page: Page): Promise<void> {
  return read(
    page,
    `{
      const seen = (globalThis.samples = { cells: {}, between: 0, objectives: {} });
      const tick = () => {
        const view = ${VIEW};
        if (view?.model && view.map.time !== undefined) {
          for (const agent of view.model.agents.values()) {
            const at = view.model.position(agent, view.map.time);
            const cells = (seen.cells[agent.id] ??= []);
            if (cells.at(-1) !== at.x + "," + at.y) cells.push(at.x + "," + at.y);
            if (!Number.isInteger(at.x) || !Number.isInteger(at.y)) seen.between++;
          }
          for (const o of view.model.objectives.values()) {
            const statuses = (seen.objectives[o.id] ??= []);
            if (statuses.at(-1) !== o.status) statuses.push(o.status);
          }
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }`,
  );
}

const samplesOf = (page: Page): Promise<Samples> => read(page, "globalThis.samples");

/** In the page: resolves with `result`, evaluated then, once `frames` more frames have been drawn. */
const afterFrames = (frames: number, result = "undefined"): string => `new Promise((resolve) => {
  let left = ${frames};
  const next = () => (--left > 0 ? requestAnimationFrame(next) : resolve(${result}));
  requestAnimationFrame(next);
})`;

/** In the page: keeps the selected agent, its sight square and the map's pixels as they are now. */
const SNAPSHOT_MAP = `{
  const view = ${VIEW};
  const at = view.model.position(view.model.agents.get(view.selected), view.map.time);
  const map = view.map.maps.find((m) => m.space.id === at.space);
  const r = view.model.scene.sight_radius;
  const side = (2 * r + 1) * map.cell * map.ratio;
  const x0 = (Math.round(at.x) - r) * map.cell * map.ratio;
  const y0 = (Math.round(at.y) - r) * map.cell * map.ratio;
  const { width, height } = map.canvas;
  const pixels = map.canvas.getContext("2d").getImageData(0, 0, width, height).data;
  globalThis.snapshot = { map, square: { x0, y0, side }, pixels, draws: view.map.draws };
}`;

/** In the page: the share of the sight square's pixels that changed since the snapshot, and of the rest. */
const SIGHT_CHANGE = `{
  const { map, square, pixels } = globalThis.snapshot;
  const { width, height } = map.canvas;
  const now = map.canvas.getContext("2d").getImageData(0, 0, width, height).data;
  const counts = { inside: [0, 0], outside: [0, 0] };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const changed = now[i] !== pixels[i] || now[i + 1] !== pixels[i + 1] || now[i + 2] !== pixels[i + 2];
      // The square's dashed edge is drawn across its border: a pixel's margin either side is left out.
      const dx = Math.min(x - square.x0, square.x0 + square.side - 1 - x);
      const dy = Math.min(y - square.y0, square.y0 + square.side - 1 - y);
      const edge = Math.min(dx, dy);
      if (Math.abs(edge) <= 2) continue;
      const c = edge > 0 ? counts.inside : counts.outside;
      c[0] += changed ? 1 : 0;
      c[1]++;
    }
  ({ inside: counts.inside[0] / counts.inside[1], outside: counts.outside[0] / counts.outside[1] });
}`;

/**
 * In the page: every shown element with text of its own whose colour is below WCAG AA against the
 * first opaque background behind it (4.5:1), and every agent's colour swatch below 3:1 against its
 * card (the ratio for graphics), each described.
 */
const READABILITY_CHECK = `{
  const rgb = (css) => (css.match(/[\\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]) => {
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const behind = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const found = [];
  for (const e of document.querySelectorAll("body *")) {
    const ownText = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || e.closest("script, style, option") || !e.getClientRects().length) continue;
    const r = ratio(rgb(getComputedStyle(e).color), behind(e));
    if (r < 4.5) found.push(e.tagName + "." + e.className + " " + r.toFixed(2) + ": " + e.textContent.slice(0, 40));
  }
  for (const swatch of document.querySelectorAll(".swatch")) {
    const r = ratio(rgb(getComputedStyle(swatch).backgroundColor), behind(swatch.parentElement));
    if (r < 3) found.push("swatch of " + swatch.closest("[data-agent]").dataset.agent + " " + r.toFixed(2));
  }
  found;
}`;

describe("the viewer in a browser", { skip }, () => {
  let runId = "";
  let liveDigest: Digest;
  let page: Page;
  let errors: string[];

  before(() => mkdirSync(outputDir, { recursive: true }));
  after(() => page?.close());

  it("starts a run from the runs page and shows it live to completed: agents moving, objectives done, a reload resuming", async () => {
    ({ page, errors } = await openPage(suite.browser, `${live.url}/`));
    await page.locator("#scenario option[value=bridge_repair]").waitFor({ state: "attached" });
    // The page's clock starts at its navigation: the time to ready, without opening the tab.
    const loadMs = Math.round(await read<number>(page, "performance.now()"));
    await page.selectOption("#scenario", "bridge_repair");
    await page.fill("#seed", "3");
    // About 12 s of run: a loaded machine's page still comes up while it runs.
    await page.fill("#pace", "3");
    await page.click("#start-run");
    await page.waitForURL(/\/runs\/run-\d+$/);
    runId = page.url().split("/").at(-1)!;
    await sample(page);
    await until(page, "WarrenViewer.page?.model?.cursor > 20");
    const before = await samplesOf(page);
    // The status line follows the run's own answer, which may come a moment after the events.
    await until(page, "document.querySelector('#run-status')?.textContent === 'running'");
    // A reload starts again from the stream's beginning and carries on live.
    await page.reload();
    await sample(page);
    await until(page, "document.querySelector('#run-status')?.dataset.status === 'completed'");
    await until(page, "WarrenViewer.page.mode === 'replay'");
    const afterReload = await samplesOf(page);
    const moved = Object.values(before.cells).concat(Object.values(afterReload.cells));
    assert.ok(
      moved.some((cells) => cells.length >= 3),
      "an agent was drawn at several places",
    );
    assert.ok(before.between + afterReload.between > 0, "an agent was drawn between cells (a smooth move)");
    const statuses = { ...before.objectives };
    for (const [id, list] of Object.entries(afterReload.objectives))
      statuses[id] = [...(statuses[id] ?? []), ...list];
    assert.deepEqual(Object.keys(statuses).sort(), ["repair", "resupply"]);
    for (const list of Object.values(statuses)) {
      assert.equal(list[0], "pending");
      assert.equal(list.at(-1), "completed");
    }
    for (const id of ["repair", "resupply"]) {
      assert.equal(
        await page.getAttribute(`#objectives li[data-objective=${id}]`, "data-status"),
        "completed",
      );
    }
    // How it ended, the resupply's deadline, and who plays each agent.
    assert.match((await page.textContent("#run-reason")) ?? "", /^\(.+\)$/);
    assert.match((await page.textContent("#objectives li[data-objective=resupply]")) ?? "", / due t=\d+s/);
    assert.equal(
      await page.textContent("li[data-agent=courier-1] [data-field=controller]"),
      "solution runner",
    );
    const run = live.server.registry.get(runId).run;
    liveDigest = await read(page, `${VIEW}.liveDigest`);
    assert.equal(liveDigest.cursor, run.eventCursor);
    assert.equal(liveDigest.status, "completed");
    // No event says the two sound planks were worked into the bridge: the server's world does.
    const used = (liveDigest.items as string[]).filter((item) => /^plank-\d:gone$/.test(item));
    assert.equal(used.length, 2, String(liveDigest.items));
    const stream = await read(page, `({ gaps: ${VIEW}.model.gaps, duplicates: ${VIEW}.model.duplicates })`);
    assert.deepEqual(stream, { gaps: 0, duplicates: 0 });
    // The runs page lists it.
    const list = await suite.browser.newPage();
    await list.goto(`${live.url}/`);
    await list.locator(`tr[data-run="${runId}"][data-status=completed]`).waitFor();
    assert.match(
      (await list.textContent(`tr[data-run="${runId}"]`)) ?? "",
      new RegExp(`bridge_repair\\s*3\\s*3\\s*t=${run.simTimeMs / 1000}s`),
    );
    await list.close();
    assert.deepEqual(errors, []);
    process.stderr.write(`runs page ready in ${loadMs} ms\n`);
  });

  it("replays the ended run: the same final state, then start, step, play and scrub from the keyboard and controls", async () => {
    assert.deepEqual(await digestOf(page), liveDigest, "the replay's end is the live run's end");
    // A selected agent shows its sight and its latest observation's text.
    await page.click("li[data-agent=engineer-1] button");
    await until(
      page,
      "document.querySelector('.agent-detail pre')?.textContent.includes('You are Sam the engineer')",
    );
    await page.screenshot({ path: join(outputDir, "run-page.png"), fullPage: true });
    await read(page, "document.activeElement?.blur()");
    // Its sight is shaded on the map: clearing the selection changes the pixels of that square only.
    await read(page, SNAPSHOT_MAP);
    await page.keyboard.press("Escape");
    await until(page, `${VIEW}.map.draws > globalThis.snapshot.draws`);
    const sight = await read<{ inside: number; outside: number }>(page, SIGHT_CHANGE);
    assert.ok(sight.inside > 0.5, `${sight.inside} of the sight square changed`);
    assert.equal(sight.outside, 0, "nothing outside the sight square changed");
    await page.click("li[data-agent=engineer-1] button");
    await read(page, "document.activeElement?.blur()");
    // [ and ] move the selection through the agents.
    await page.keyboard.press("]");
    assert.equal(await read(page, `${VIEW}.selected`), "courier-1");
    await page.keyboard.press("[");
    assert.equal(await read(page, `${VIEW}.selected`), "engineer-1");
    await page.keyboard.press("Home");
    assert.deepEqual(await read(page, `[${VIEW}.model.cursor, ${VIEW}.model.status]`), [0, "created"]);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await read(page, `${VIEW}.model.cursor`), 2);
    await page.selectOption(".replay select", "100");
    await page.click(".replay button.play");
    await until(
      page,
      "WarrenViewer.page.player.index === WarrenViewer.page.player.events.length && !WarrenViewer.page.player.playing",
    );
    assert.deepEqual(await digestOf(page), liveDigest);
    // Scrubbing back half-way shows the run as it was then; played slowly, it pauses where it is.
    await page.locator(".replay input[type=range]").fill("50");
    assert.equal(await read(page, `${VIEW}.model.cursor`), 50);
    await page.selectOption(".replay select", "1");
    await page.click(".replay button.play");
    await until(page, `${VIEW}.player.playing && ${VIEW}.model.cursor > 50`);
    await page.click(".replay button.play");
    const paused = await read<number>(page, `${VIEW}.model.cursor`);
    assert.equal(await read(page, `${VIEW}.player.playing`), false);
    // A replay moves on only in frames.
    await read(page, afterFrames(10));
    assert.equal(await read(page, `${VIEW}.model.cursor`), paused, "a paused replay stays where it is");
    await page.selectOption(".replay select", "100");
    await page.click(".replay button.play");
    await until(page, "!WarrenViewer.page.player.playing");
    assert.deepEqual(await digestOf(page), liveDigest);
    // A paused replay shows no change: its maps are not redrawn, until something changes.
    const redrawsOver = (frames: number): Promise<number> =>
      read(
        page,
        `(() => { const from = ${VIEW}.map.draws; return ${afterFrames(frames, `${VIEW}.map.draws - from`)}; })()`,
      );
    await redrawsOver(2);
    assert.equal(await redrawsOver(10), 0, "a still map is not redrawn");
    const drawsBefore = await read<number>(page, `${VIEW}.map.draws`);
    await page.keyboard.press("]");
    await until(page, `${VIEW}.map.draws > ${drawsBefore}`);
    await page.keyboard.press("[");
    assert.deepEqual(errors, []);
  });

  it("links an event of the log to its place on the map and filters the log by agent and kind", async () => {
    await page.selectOption("#event-log select[aria-label='filter events by kind']", "arrived");
    await page.selectOption("#event-log select[aria-label='filter events by agent']", "courier-1");
    const kinds = await read<string[]>(
      page,
      `[...document.querySelectorAll("ol.events li")].map((r) => r.dataset.kind)`,
    );
    assert.ok(kinds.length > 0 && kinds.every((k) => k === "arrived"), kinds.join());
    // A sentence by default; its raw fields on the toggle.
    assert.match(
      (await page.textContent("ol.events li:first-child")) ?? "",
      /^#\d+t=[\d.]+scourier-1 arrived at (the [a-z ]+|valley:\d+,\d+)$/,
    );
    await page.check("#raw-events");
    const text = await page.textContent("ol.events li:first-child");
    assert.match(text ?? "", /arrivedagent=courier-1 cell=valley:\d+,\d+/);
    await page.click("ol.events li:first-child button");
    const picked = await read<{ selected: string; highlight: unknown }>(
      page,
      `({ selected: ${VIEW}.selected, highlight: ${VIEW}.map.highlight?.cell })`,
    );
    assert.equal(picked.selected, "courier-1");
    const cell = /cell=(\w+):(\d+),(\d+)/.exec(text ?? "")!;
    assert.deepEqual(picked.highlight, { space: cell[1], x: Number(cell[2]), y: Number(cell[3]) });
    // Back to sentences: who took what, where.
    await page.uncheck("#raw-events");
    await page.selectOption("#event-log select[aria-label='filter events by kind']", "took");
    await page.selectOption("#event-log select[aria-label='filter events by agent']", "engineer-1");
    assert.match(
      (await page.textContent("ol.events li:last-child")) ?? "",
      /^#\d+t=[\d.]+sengineer-1 took toolbox-1 at the workshop$/,
    );
    // The bridge's row says how its span stands now, and nothing that contradicts it.
    const bridge = (await page.textContent("#places li[data-place=bridge]")) ?? "";
    assert.match(bridge, /span: repaired/);
    assert.doesNotMatch(bridge, /broken/);
    // A place of the list is shown on the map too.
    await page.click("#places li[data-place=clinic] button");
    const clinic = await read<{ x: number; y: number }>(page, `${VIEW}.map.highlight.cell`);
    assert.equal(
      `valley:${clinic.x},${clinic.y}`,
      await read(page, `${VIEW}.model.places.get("clinic").cell`),
    );
  });

  it("has readable colours: every text 4.5:1 against what is behind it, every token 3:1 against its card", async () => {
    const unreadable = await read<string[]>(page, READABILITY_CHECK);
    assert.deepEqual(unreadable, []);
  });

  it("shows the same final state from a `warren run --html` file, with no server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "warren-html-"));
    try {
      const file = join(dir, "bridge.html");
      await new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          [warrenBin, "run", "bridge_repair", "--seed", "3", "--html", file],
          { cwd: packageDir },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
      const opened = await openPage(suite.browser, pathToFileURL(file).href);
      await until(opened.page, "WarrenViewer.page?.mode === 'replay'");
      assert.deepEqual(await digestOf(opened.page), liveDigest);
      await opened.page.click("li[data-agent=courier-1] button");
      await until(
        opened.page,
        "document.querySelector('.agent-detail pre')?.textContent.includes('You are Ada the courier')",
      );
      assert.deepEqual(opened.errors, []);
      await opened.page.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows the run's own time: while the run waits for its remote agent, never a time beyond the run's", async () => {
    const { runId, leases } = await runWithClaims(live.url, "signal_relay", ["runner-1"], { pace: 1 });
    const lease = leases["runner-1"]!;
    const run = live.server.registry.get(runId).run;
    const agentPath = `/v1/runs/${runId}/agents/runner-1`;
    const viewer = await openPage(suite.browser, `${live.url}/runs/${runId}`);
    try {
      await until(viewer.page, "WarrenViewer.page?.feed?.connected");
      // The runner sleeps: the paced run moves on, then waits for the runner's next answer.
      const first = run.outstanding("runner-1")!;
      const slept = await call(live.url, "POST", `${agentPath}/commands`, {
        query: { lease },
        body: { command_id: "c-1", observation_id: first.observation_id, sleep_ms: 1500 },
      });
      assert.equal(slept.json.status, "accepted");
      const waitingAt = await waitFor("the run to wait for runner-1 again", async () => {
        const next = run.outstanding("runner-1");
        return next && next.observation_id !== first.observation_id ? next : undefined;
      });
      const standing = run.simTimeMs;
      assert.equal(waitingAt.sim_time_ms, standing);
      // Every frame, the time the page shows; the clock's text is read as it is drawn.
      await read(
        viewer.page,
        `{
          const seen = (globalThis.clockSeen = { frames: 0, most: 0, texts: new Set() });
          const tick = () => {
            const view = ${VIEW};
            seen.frames++;
            seen.most = Math.max(seen.most, view.displayTime(performance.now()));
            seen.texts.add(document.querySelector("#sim-clock").textContent);
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }`,
      );
      await until(
        viewer.page,
        `globalThis.clockSeen.frames >= 60 && document.querySelector("#run-waiting").textContent.includes("waiting for runner-1")`,
      );
      const seen = await read<{ most: number; texts: string[] }>(
        viewer.page,
        "({ most: globalThis.clockSeen.most, texts: [...globalThis.clockSeen.texts] })",
      );
      // Still waiting on the same observation, at the same time: the page never showed beyond it.
      assert.equal(run.outstanding("runner-1")?.observation_id, waitingAt.observation_id);
      assert.equal(run.simTimeMs, standing);
      assert.ok(
        seen.most <= standing,
        `the page showed ${seen.most} ms while the run stood at ${standing} ms`,
      );
      for (const text of seen.texts) {
        const ms = Number(/^sim t=([\d.]+)s$/.exec(text)?.[1]) * 1000;
        assert.ok(ms <= standing, `the clock read "${text}" while the run stood at ${standing} ms`);
      }
      // Answered, the run moves on, and so does the clock.
      await call(live.url, "POST", `${agentPath}/commands`, {
        query: { lease },
        body: { command_id: "c-2", observation_id: waitingAt.observation_id, sleep_ms: 5000 },
      });
      await until(viewer.page, `${VIEW}.displayTime(performance.now()) > ${standing}`);
      assert.deepEqual(viewer.errors, []);
    } finally {
      run.dispose("the test is done");
      await viewer.page.close();
    }
  });

  it("resumes a lagged stream with since: no gap, no duplicate", async () => {
    const proxy = await TcpProxy.start(laggy.url);
    try {
      const { runId: lagRun, leases } = await runWithClaims(laggy.url, "loud_yard", ["shouter-1"]);
      const lease = leases["shouter-1"]!;
      const run = laggy.server.registry.get(lagRun).run;
      const viewer = await openPage(suite.browser, `${proxy.url}/runs/${lagRun}`);
      await until(viewer.page, "WarrenViewer.page?.feed?.connected && WarrenViewer.page.model.cursor > 0");
      // A remote agent's card says who holds it (the claim gave no holder name).
      await until(
        viewer.page,
        "document.querySelector('li[data-agent=shouter-1] [data-field=controller]')?.textContent === 'remote holder: a client with no name'",
      );
      // The viewer's connection stops delivering; large events pile up until the server lags it.
      proxy.pauseDownstream(/spectate/);
      const serverSide = [...laggy.server.app.websocketServer.clients];
      const lagging = () => serverSide.some((client) => client.readyState !== WebSocket.OPEN);
      for (let i = 0; i < 200 && !lagging(); i++) await shout(laggy.url, lagRun, lease, 100 * 1024);
      assert.ok(lagging(), "the server gave up on the stalled viewer");
      // Events keep coming while it is away.
      for (let i = 0; i < 5; i++) await shout(laggy.url, lagRun, lease, 10);
      proxy.resumeDownstream();
      await until(
        viewer.page,
        `WarrenViewer.page.feed.lagged >= 1 && WarrenViewer.page.model.cursor === ${run.eventCursor}`,
      );
      run.dispose("the test is done");
      await until(viewer.page, "WarrenViewer.page.mode === 'replay'");
      const seen = await read<{
        cursors: number[];
        gaps: number;
        duplicates: number;
        resumed: boolean;
        status: string;
      }>(
        viewer.page,
        `({
          cursors: ${VIEW}.player.events.map((e) => e.cursor),
          gaps: ${VIEW}.model.gaps,
          duplicates: ${VIEW}.model.duplicates,
          resumed: ${VIEW}.feed.lagged >= 1 && ${VIEW}.feed.reconnects >= 1,
          status: ${VIEW}.model.status,
        })`,
      );
      assert.deepEqual(
        seen.cursors,
        run.events(0).map((e) => e.cursor),
      );
      assert.deepEqual([seen.gaps, seen.duplicates, seen.resumed, seen.status], [0, 0, true, "crashed"]);
      assert.deepEqual(viewer.errors, []);
      await viewer.page.close();
    } finally {
      await proxy.close();
    }
  });
});
