import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CRATES } from "../src/scenarios/harvest_rush/map.js";
import { VIEWER_SCRIPT, VIEWER_STYLESHEET, viewerAsset } from "../src/web/assets.js";
import { call, runWithClaims, serverForSuite } from "./helpers/server.js";
import { warrenBin } from "./helpers/warren-process.js";

const live = serverForSuite();
const packageDir = fileURLToPath(new URL("..", import.meta.url));

async function page(path: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(live.url + path);
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

async function endedRun(scenario: string, seed: number, at = live): Promise<string> {
  const created = await call(at.url, "POST", "/v1/runs", { query: { scenario, seed }, body: {} });
  const runId = created.json.run_id as string;
  await at.server.registry.get(runId).run.whenEnded();
  return runId;
}

describe("the viewer's routes", () => {
  it("serves the runs page at / and a run's page at /runs/{run}, each one document with every viewer file inlined", async () => {
    for (const [path, config] of [
      ["/", '{"page":"runs"}'],
      ["/runs/run-7", '{"page":"run","run_id":"run-7"}'],
    ] as const) {
      const got = await page(path);
      assert.equal(got.status, 200);
      assert.match(got.type, /^text\/html/);
      assert.ok(got.text.includes(`window.WARREN_PAGE = ${config};`), path);
      assert.doesNotMatch(got.text, /<script src=|<link /, "nothing more to fetch");
      for (const file of [VIEWER_SCRIPT, VIEWER_STYLESHEET])
        assert.ok(got.text.includes(viewerAsset(file).split("\n")[0]!), file);
      assert.match(got.text, /RunModel = class /);
    }
  });

  it("gives a run's scene, and 404 unknown_run for a run it does not host", async () => {
    const runId = await endedRun("signal_relay", 2);
    const scene = await call(live.url, "GET", `/runs/${runId}/scene`);
    assert.equal(scene.status, 200);
    assert.equal(scene.json.run_id, runId);
    assert.equal(scene.json.scenario, "signal_relay");
    assert.equal(scene.json.seed, 2);
    assert.deepEqual(
      scene.json.agents.map((a: { controller: string }) => a.controller),
      ["solution", "solution"],
    );
    const unknown = await call(live.url, "GET", "/runs/run-404/scene");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error, "unknown_run");
  });

  it("gives an agent's latest observation text (a remote one's envelope text), 404 for an unknown agent", async () => {
    const { runId } = await runWithClaims(live.url, "bridge_repair", ["engineer-1"]);
    const hosted = live.server.registry.get(runId);
    const remote = await call(live.url, "GET", `/runs/${runId}/agents/engineer-1/observation`);
    const envelope = hosted.run.outstanding("engineer-1")!;
    assert.deepEqual(remote.json, { observation_id: envelope.observation_id, text: envelope.text });
    assert.match(remote.json.text, /You can: /);
    const npc = await call(live.url, "GET", `/runs/${runId}/agents/courier-1/observation`);
    assert.equal(npc.status, 200);
    assert.match(npc.json.text, /^\[t=\d+(\.\d+)?s\] You are Ada the courier/);
    const unknown = await call(live.url, "GET", `/runs/${runId}/agents/ghost-1/observation`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error, "unknown_agent");
    // The record comes once the run has ended; it is empty while it goes.
    assert.deepEqual((await call(live.url, "GET", `/runs/${runId}/record`)).json, { texts: {}, changes: [] });
    // The world as it stands, with the cursor it stands at.
    const world = await call(live.url, "GET", `/runs/${runId}/world`);
    assert.equal(world.json.cursor, hosted.run.eventCursor);
    assert.deepEqual(world.json.items["toolbox-1"], { at: "cell", cell: "valley:1,1" });
    assert.deepEqual(world.json.features.bridge, { span: "broken (0/2 sections fixed)" });
    hosted.run.dispose("the test is done");
  });

  it("gives an ended run's record: every observation text, one per decided wake, and the world's changes", async () => {
    const runId = await endedRun("harvest_rush", 4);
    const run = live.server.registry.get(runId).run;
    const { texts, changes } = (await call(live.url, "GET", `/runs/${runId}/record`)).json;
    // Each crate sold at the market is used up as its objective counts.
    const sold = changes.filter((c: { items?: object }) =>
      Object.values(c.items ?? {}).some((l) => JSON.stringify(l) === '{"at":"gone"}'),
    );
    assert.equal(sold.length, CRATES);
    const wakes = run.events(0).filter((e) => e.kind === "wake");
    const decided = new Set(
      run
        .events(0)
        .filter((e) => e.kind === "decision")
        .map((e) => e.data.observation_id),
    );
    assert.deepEqual(Object.keys(texts).sort(), [...decided].sort());
    assert.ok(wakes.length >= Object.keys(texts).length && Object.keys(texts).length > 10);
    const first = wakes[0]!;
    assert.match(texts[String(first.data.observation_id)], /You woke because the run has started/);
    // Asked again, the same record comes from the first replay.
    assert.deepEqual((await call(live.url, "GET", `/runs/${runId}/record`)).json, { texts, changes });
  });
});

describe("the record of a run whose oldest events were dropped", () => {
  const forgetful = serverForSuite({ retainedEvents: 40 });

  it("is empty: the run cannot be replayed from its first event", async () => {
    const runId = await endedRun("harvest_rush", 4, forgetful);
    const run = forgetful.server.registry.get(runId).run;
    assert.ok(run.oldestRetainedEvent > 1, `the run kept events from #${run.oldestRetainedEvent}`);
    const record = await call(forgetful.url, "GET", `/runs/${runId}/record`);
    assert.equal(record.status, 200);
    assert.deepEqual(record.json, {
      texts: {},
      changes: [],
      note: `run ${runId} kept only its events from #${run.oldestRetainedEvent}: it cannot be replayed for its record`,
    });
  });
});

describe("warren run --html", () => {
  const dir = mkdtempSync(join(tmpdir(), "warren-html-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes one self-contained HTML file: the viewer inlined, the scene, every event, its record", async () => {
    const file = join(dir, "run.html");
    const code = await new Promise<number>((resolve) =>
      execFile(
        process.execPath,
        [warrenBin, "run", "bridge_repair", "--seed", "3", "--html", file],
        { cwd: packageDir },
        (error) => resolve(error ? Number(error.code ?? 1) : 0),
      ),
    );
    assert.equal(code, 0);
    const html = readFileSync(file, "utf8");
    assert.doesNotMatch(html, /<script src=|<link /, "nothing is loaded from elsewhere");
    const config = JSON.parse(/window\.WARREN_PAGE = (.*);<\/script>/.exec(html)![1]!);
    assert.equal(config.page, "file");
    assert.equal(config.scene.scenario, "bridge_repair");
    assert.equal(config.events.at(-1).data.status, "completed");
    assert.ok(config.events.every((e: { cursor: number }, i: number) => e.cursor === i + 1));
    const decisions = config.events.filter((e: { kind: string }) => e.kind === "decision");
    for (const d of decisions) assert.ok(config.record.texts[d.data.observation_id], d.data.observation_id);
    assert.ok(config.record.changes.length > 0);
    assert.match(html, /RunModel = class /);
  });
});
