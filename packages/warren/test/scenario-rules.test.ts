import assert from "node:assert/strict";
import { test } from "node:test";
import { SOAKED_SIGNS, STACKS } from "../src/scenarios/bridge_repair/map.js";
import { isSound } from "../src/scenarios/bridge_repair/rules.js";
import { releaseOrder } from "../src/scenarios/dam_release/map.js";
import { addresses, RESIDENTS } from "../src/scenarios/parcel_dispatch/map.js";
import { RemoteAgent, remoteRun } from "./helpers/engine-runs.js";

/** Mistakes that cannot be undone end the run at once, with the reason. */

test("bridge_repair: a plank put down at the broken bridge without the engineer is swept away", async () => {
  const { run } = remoteRun("bridge_repair", {
    seed: 3,
    controlled: ["engineer-1", "courier-1", "lookout-1"],
  });
  const [sam, ada, kim] = ["engineer-1", "courier-1", "lookout-1"].map((id) => new RemoteAgent(run, id));
  const view = kim!.envelope().observation;
  const seen = view.nearby.items.find((i) => i.kind === "plank")!;
  const stack = view.nearby.places.find((p) => p.cell === seen.cell)!.id;
  kim!.send({ sleep_ms: 600_000 });
  sam!.send({ sleep_ms: 600_000 });
  ada!.act("move_to", { dest: stack });
  ada!.waitFor((e) => e.observation.you.place === stack);
  ada!.act("take", { item: seen.id });
  ada!.act("move_to", { dest: "bridge" });
  ada!.waitFor((e) => e.observation.you.place === "bridge");
  ada!.act("drop", { item: seen.id });
  const summary = await run.whenEnded();
  assert.equal(summary.status, "failed");
  assert.equal(
    summary.status_reason,
    `objective repair failed: ${seen.id} was lost in the river at the broken bridge`,
  );
  assert.ok(run.events().some((e) => e.kind === "lost" && e.data.item === seen.id));
});

test("bridge_repair: the toolbox put down at the broken bridge falls into the river", async () => {
  const { run } = remoteRun("bridge_repair", { seed: 1, controlled: ["engineer-1"] });
  const sam = new RemoteAgent(run, "engineer-1");
  sam.act("take", { item: "toolbox-1" });
  sam.act("move_to", { dest: "bridge" });
  sam.waitFor((e) => e.observation.you.place === "bridge");
  sam.act("drop", { item: "toolbox-1" });
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    "objective repair failed: toolbox-1 was lost in the river at the broken bridge",
  );
});

test("bridge_repair: the storm log tells soaked from sound; a soaked plank repaired with gives way", async () => {
  const { run } = remoteRun("bridge_repair", {
    seed: 2,
    controlled: ["courier-1", "lookout-1"],
    npcPolicy: "solution",
  });
  const [ada, kim] = ["courier-1", "lookout-1"].map((id) => new RemoteAgent(run, id));
  const log = String(kim!.envelope().observation.place.features.storm_log).split("; ");
  const soaked = [...run.world.items.values()].find((i) => i.kind === "plank" && !isSound(run.world, i))!;
  const stack = STACKS.find((id) => run.world.itemsAt(run.world.places.get(id)!.cell).includes(soaked.id))!;
  assert.equal(log.length, STACKS.length);
  assert.ok(
    SOAKED_SIGNS.some((sign) => log.includes(`${stack}: ${sign}`)),
    log.join("; "),
  );
  kim!.send({ sleep_ms: 600_000 });
  ada!.act("move_to", { dest: stack });
  ada!.waitFor((e) => e.observation.you.place === stack);
  ada!.act("take", { item: soaked.id });
  ada!.act("move_to", { dest: "bridge" });
  ada!.waitFor(
    (e) =>
      e.observation.you.place === "bridge" && e.observation.place.agents.some((a) => a.role === "engineer"),
  );
  ada!.act("drop", { item: soaked.id });
  ada!.send({ sleep_ms: 600_000 });
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    `objective repair failed: ${soaked.id} was soaked: it split under load and the section gave way`,
  );
});

test("harvest_rush: a crate put down outside the market bruises and loses the harvest", async () => {
  const { run } = remoteRun("harvest_rush", { seed: 5, controlled: ["farmer-1"] });
  const ana = new RemoteAgent(run, "farmer-1");
  const field = (ana.envelope().observation.place.features.rota as Record<string, string>)["farmer-1"]!;
  ana.act("move_to", { dest: field });
  const there = ana.waitFor((e) => e.observation.you.place === field);
  const crate = there.observation.place.items[0]!.id;
  ana.act("take", { item: crate });
  ana.act("drop", { item: crate });
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    `objective harvest failed: ${crate} was put down outside the market and its fruit bruised`,
  );
});

test("parcel_dispatch: only the dispatcher reads the ledger, whom each parcel is for; a parcel at the wrong door is lost", async () => {
  const { run } = remoteRun("parcel_dispatch", { seed: 2, controlled: ["dispatcher-1", "courier-1"] });
  const mo = new RemoteAgent(run, "dispatcher-1");
  const lia = new RemoteAgent(run, "courier-1");
  const ledger = mo.envelope().observation.place.features.ledger as Record<string, string>;
  const address = addresses(run.world);
  assert.deepEqual(
    ledger,
    Object.fromEntries(Object.entries(address).map(([p, house]) => [p, `for ${RESIDENTS[house]}`])),
    "the ledger names households, never houses",
  );
  assert.deepEqual(lia.envelope().observation.place.features, {}, "a courier cannot read the ledger");
  mo.send({ sleep_ms: 600_000 });
  const [parcel, house] = Object.entries(address)[0]!;
  const wrong = house === "house_a" ? "house_b" : "house_a";
  lia.act("take", { item: parcel });
  lia.act("move_to", { dest: wrong });
  lia.waitFor((e) => e.observation.you.place === wrong);
  lia.act("drop", { item: parcel });
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    `objective deliver failed: ${parcel} was left at ${wrong}, not its address`,
  );
});

test("fog_search: everyone sees one cell around; from a cairn the spotter sees sheep as bearings; a sheep put down outside the pen bolts", async () => {
  const { run } = remoteRun("fog_search", { seed: 4, controlled: ["spotter-1", "shepherd-1"] });
  const nell = new RemoteAgent(run, "spotter-1");
  const owen = new RemoteAgent(run, "shepherd-1");
  assert.equal(run.briefing("shepherd-1").conventions.sight_radius, 1);
  assert.equal(run.briefing("spotter-1").conventions.sight_radius, 1);
  owen.send({ sleep_ms: 30_000 });
  nell.act("move_to", { dest: "sw_cairn" });
  const top = nell.waitFor((e) => e.observation.you.place === "sw_cairn").observation;
  const cairn = run.world.places.get("sw_cairn")!.cell;
  const sheep = [...run.world.items.values()].find((i) => {
    if (i.location.at !== "cell") return false;
    const { x, y } = i.location.cell;
    return Math.max(Math.abs(x - cairn.x), Math.abs(y - cairn.y)) <= 5;
  })!;
  assert.ok(sheep, "seed 4 has a sheep within five cells of the south-west cairn");
  const at = sheep.location.at === "cell" ? sheep.location.cell : cairn;
  const ns = at.y === cairn.y ? "" : `${Math.abs(at.y - cairn.y)} ${at.y < cairn.y ? "north" : "south"}`;
  const ew = at.x === cairn.x ? "" : `${Math.abs(at.x - cairn.x)} ${at.x < cairn.x ? "west" : "east"}`;
  const sightings = String(top.place.features.over_the_fog).split("; ");
  assert.ok(sightings.includes(`a sheep ${[ns, ew].filter(Boolean).join(" and ")}`), sightings.join("; "));
  assert.ok(!String(top.place.features.over_the_fog).includes("moor:"), "bearings, never cells");
  nell.send({ sleep_ms: 600_000 });
  const cell = `moor:${at.x},${at.y}`;
  owen.act("move_to", { dest: cell });
  owen.waitFor((e) => e.observation.you.cell === cell);
  owen.act("take", { item: sheep.id });
  owen.act("drop", { item: sheep.id });
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    `objective gather failed: ${sheep.id} was put down outside the pen and bolted into the fog`,
  );
});

/** Both dam operators at the levers of the first spillway in the order, on a hand-driven run. */
function atFirstLevers() {
  const { run } = remoteRun("dam_release", {
    seed: 6,
    controlled: ["supervisor-1", "operator-n", "operator-s"],
  });
  const [una, vik, wen] = ["supervisor-1", "operator-n", "operator-s"].map((id) => new RemoteAgent(run, id));
  const order = releaseOrder(run.world);
  una!.send({ sleep_ms: 600_000 });
  vik!.act("move_to", { dest: `north_lever_${order[0]}` });
  wen!.act("move_to", { dest: `south_lever_${order[0]}` });
  vik!.waitFor((e) => e.observation.you.place === `north_lever_${order[0]}`);
  wen!.waitFor((e) => e.observation.you.place === `south_lever_${order[0]}`);
  return { run, vik: vik!, wen: wen!, order };
}

test("dam_release: two levers pulled exactly 2 s apart open the spillway; 2.001 s apart the first springs back and trips the alarm", async () => {
  for (const gap of [2000, 2001]) {
    const { run, vik, wen, order } = atFirstLevers();
    // Line both up at the same millisecond, then pull north now and south `gap` ms later.
    const start = run.simTimeMs;
    assert.equal(vik.envelope().sim_time_ms, wen.envelope().sim_time_ms, "both wake together");
    vik.act("pull_lever");
    wen.send({ sleep_ms: gap });
    if (gap === 2000) {
      wen.waitFor((e) => e.sim_time_ms === start + gap, 1);
      wen.act("pull_lever");
      const release = run.summary().objectives.find((o) => o.id === "release")!;
      assert.equal(release.progress.current, 1, `${gap} ms apart`);
      run.dispose("done");
      continue;
    }
    const summary = await run.whenEnded();
    assert.equal(
      summary.status_reason,
      `objective release failed: the north lever of spillway ${order[0]} sprang back unpaired and the alarm tripped`,
    );
    assert.equal(summary.objectives.find((o) => o.id === "release")!.progress.current, 0);
  }
});

test("dam_release: a lever of a spillway out of order trips the alarm", async () => {
  const { run } = remoteRun("dam_release", { seed: 6, controlled: ["supervisor-1", "operator-n"] });
  const una = new RemoteAgent(run, "supervisor-1");
  const vik = new RemoteAgent(run, "operator-n");
  const order = releaseOrder(run.world);
  una.send({ sleep_ms: 600_000 });
  vik.act("move_to", { dest: `north_lever_${order[1]}` });
  vik.waitFor((e) => e.observation.you.place === `north_lever_${order[1]}`);
  vik.act("pull_lever");
  const summary = await run.whenEnded();
  assert.equal(
    summary.status_reason,
    `objective release failed: spillway ${order[1]} was pulled out of order and the alarm tripped`,
  );
});

test("dam_release: the supervisor reads gauges, not the order; above the red line, highest first, they give it", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const { run } = remoteRun("dam_release", { seed, controlled: ["supervisor-1", "operator-n"] });
    const board = new RemoteAgent(run, "supervisor-1").envelope().observation.place.features;
    assert.deepEqual(Object.keys(board), ["gauges", "red_line"]);
    const line = Number.parseFloat(String(board.red_line));
    const above = [...String(board.gauges).matchAll(/spillway (\d): ([\d.]+) m/g)]
      .filter((m) => Number(m[2]) > line)
      .sort((a, b) => Number(b[2]) - Number(a[2]))
      .map((m) => Number(m[1]));
    assert.deepEqual(above, releaseOrder(run.world), `seed ${seed}`);
    assert.deepEqual(new RemoteAgent(run, "operator-n").envelope().observation.place.features, {});
    run.dispose("done");
  }
});
