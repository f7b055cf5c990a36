import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "../src/engine/index.js";
import { RemoteAgent, remoteRun, yardScenario } from "./helpers/engine-runs.js";

/** Sends an action that passes validation and expects the engine to refuse it with `sentence`. */
function refused(
  agent: RemoteAgent,
  action: string,
  args: Record<string, unknown>,
  sentence: RegExp,
): Envelope {
  const receipt = agent.act(action, args);
  assert.equal(receipt.outcome, "rejected", `${action} ${JSON.stringify(args)} should be refused`);
  assert.match(receipt.outcome_reason, sentence);
  const next = agent.envelope();
  assert.equal(next.reason, "refused");
  const told = next.observation.outcomes.find((o) => o.observation_id === receipt.observation_id);
  assert.equal(told?.result, "refused");
  assert.equal(told?.reason, receipt.outcome_reason);
  assert.match(next.text, new RegExp(`Your ${action} \\(${receipt.observation_id}\\) refused`));
  // A 1 ms sleep ends the streak, so the next refusal costs 0.1 s again (they double in a row).
  agent.send({ sleep_ms: 1 });
  return next;
}

test("bridge_repair's refusals teach what went wrong", () => {
  const { run } = remoteRun("bridge_repair", {
    seed: 3,
    controlled: ["engineer-1", "courier-1"],
    npcPolicy: "none",
  });
  const sam = new RemoteAgent(run, "engineer-1");
  const ada = new RemoteAgent(run, "courier-1");
  // Each refusal below costs Sam 0.101 s (0.1 s, then the 1 ms sleep that ends the streak): the
  // ten take 1.01 s, then a take (1 s) and one more. Ada wakes 0.5 s into Sam's walk to the bridge.
  ada.send({ sleep_ms: 2_611 });
  refused(sam, "take", { item: "anvil" }, /^There is no item called "anvil"\.$/);
  refused(
    sam,
    "take",
    { item: "medkit-1" },
    /^medkit-1 is not here: you stand at valley:1,1 and it lies elsewhere\. Items here: toolbox-1\.$/,
  );
  refused(sam, "drop", { item: "toolbox-1" }, /^You do not carry toolbox-1; you carry nothing\.$/);
  refused(sam, "repair", {}, /^You must stand at the bridge \(valley:5,\d\) to repair it\.$/);
  refused(
    sam,
    "move_to",
    { dest: "moon" },
    /^There is no place called "moon"\. Known places: workshop, tower, depot, sawmill, woodpile, barn, boatshed, bridge, clinic/,
  );
  refused(sam, "move_to", { dest: "valley:99,1" }, /no place called "valley:99,1"/);
  refused(sam, "move_to", { dest: "workshop" }, /^You are already at workshop\.$/);
  refused(sam, "move_to", { dest: "clinic" }, /^No open path leads from valley:1,1 to clinic/);
  refused(
    sam,
    "message",
    { to: "ghost", text: "hi" },
    /^There is no agent called "ghost"\. Agents you can message: courier-1, lookout-1\.$/,
  );
  refused(sam, "message", { to: "engineer-1", text: "hi" }, /^You cannot message yourself\.$/);
  sam.act("take", { item: "toolbox-1" });
  refused(sam, "take", { item: "toolbox-1" }, /^You already carry toolbox-1\.$/);
  sam.act("move_to", { dest: "bridge" });
  // While Sam walks, Ada's message wakes Sam with the body lane busy.
  assert.equal(ada.envelope().sim_time_ms, 2_611);
  ada.send({ action: "message", args: { to: "engineer-1", text: "Planks are on the way." } });
  const walking = sam.envelope();
  assert.equal(walking.reason, "message");
  assert.equal(walking.observation.busy[0]?.action, "move_to");
  assert.equal(walking.observation.messages[0]?.text, "Planks are on the way.");
  refused(
    sam,
    "drop",
    { item: "toolbox-1" },
    /^Your body lane is busy with move_to until t=[\d.]+s\. You will wake when it is done/,
  );
  // The voice lane is free meanwhile.
  assert.equal(sam.act("message", { to: "courier-1", text: "Thanks" }).outcome, "accepted");
  ada.send({ sleep_ms: 600_000 });
  const arrived = sam.waitFor((e) => e.reason === "arrived");
  assert.equal(arrived.observation.you.place, "bridge");
  refused(
    sam,
    "repair",
    {},
    /^There is no plank lying at the bridge\. Planks are too heavy for you, so a courier must bring one\.$/,
  );
  sam.act("move_to", { dest: "workshop" });
  sam.waitFor((e) => e.observation.you.place === "workshop");
  sam.act("drop", { item: "toolbox-1" });
  sam.act("move_to", { dest: "bridge" });
  sam.waitFor((e) => e.observation.you.place === "bridge");
  refused(sam, "repair", {}, /^You need the toolbox in hand to repair; it was left in the workshop\.$/);
  refused(sam, "take", { item: "toolbox-1" }, /^toolbox-1 is not here/);
});

test("planks are too heavy for anyone but a courier; carried items are not here for others", () => {
  const { run } = remoteRun("bridge_repair", {
    seed: 3,
    controlled: ["engineer-1", "courier-1", "lookout-1"],
    npcPolicy: "none",
  });
  const sam = new RemoteAgent(run, "engineer-1");
  const ada = new RemoteAgent(run, "courier-1");
  const kim = new RemoteAgent(run, "lookout-1");
  // Only the lookout sees the stacks from the tower.
  assert.equal(ada.envelope().observation.nearby.items.length, 0);
  const view = kim.envelope().observation;
  // Every stack holds a plank: the barn's is nearer the courier than the engineer, so she is there first.
  const stack = "barn";
  const cell = view.nearby.places.find((p) => p.id === stack)!.cell;
  const plank = view.nearby.items.find((i) => i.kind === "plank" && i.cell === cell)!.id;
  kim.send({ sleep_ms: 600_000 });
  ada.act("move_to", { dest: stack });
  sam.act("move_to", { dest: stack });
  ada.waitFor((e) => e.observation.you.place === stack);
  ada.send({ sleep_ms: 20_000 });
  sam.waitFor((e) => e.observation.you.place === stack);
  refused(
    sam,
    "take",
    { item: plank },
    new RegExp(`^${plank} is too heavy for a engineer; only a courier can carry it\\.$`),
  );
  sam.send({ sleep_ms: 30_000 });
  assert.equal(ada.envelope().reason, "timer");
  assert.equal(ada.act("take", { item: plank }).outcome, "accepted");
  ada.send({ sleep_ms: 600_000 });
  refused(sam, "take", { item: plank }, new RegExp(`^${plank} is not here: courier-1 carries it\\.$`));
});

test("max_inventory: the last free slot takes, the next take is refused", () => {
  const { run } = remoteRun("harvest_rush", { seed: 2, controlled: ["farmer-1"], npcPolicy: "none" });
  const ana = new RemoteAgent(run, "farmer-1");
  const start = ana.envelope();
  assert.equal(start.observation.you.budgets_left.inventory, 2);
  const cells = new Map<string, number>();
  for (const item of start.observation.nearby.items) cells.set(item.cell, (cells.get(item.cell) ?? 0) + 1);
  assert.equal(
    [...cells.values()].reduce((a, b) => a + b, 0),
    9,
    "all nine crates are in sight from the market",
  );
  // Ana's own field on the rota: only its farmer may pick a field's crates.
  const own = (start.observation.place.features.rota as Record<string, string>)["farmer-1"];
  const field = start.observation.nearby.places.find((p) => p.id === own)!.cell;
  assert.equal(cells.get(field), 3);
  ana.act("move_to", { dest: own! });
  let here = ana.waitFor((e) => e.observation.you.cell === field);
  const crates = here.observation.place.items.map((i) => i.id);
  assert.equal(ana.act("take", { item: crates[0] }).outcome, "accepted");
  assert.equal(ana.act("take", { item: crates[1] }).outcome, "accepted");
  here = ana.envelope();
  assert.equal(here.observation.you.budgets_left.inventory, 0);
  assert.ok(
    here.observation.tools.some(
      (t) => t.action === "take" && !t.ready && t.why_not === "your hands are full",
    ),
  );
  refused(
    ana,
    "take",
    { item: crates[2] },
    /^Your inventory is full: you carry 2 items, the most you can \(max_inventory 2\)\. Drop something first\.$/,
  );
});

test("max_messages: the twelfth message goes, the thirteenth is refused", () => {
  const { run } = remoteRun("signal_relay", { controlled: ["keeper-1"], npcPolicy: "none" });
  const iris = new RemoteAgent(run, "keeper-1");
  for (let n = 1; n <= 12; n++) {
    assert.equal(iris.act("message", { to: "runner-1", text: `message ${n}` }).outcome, "accepted");
    assert.equal(iris.envelope().observation.you.budgets_left.messages, 12 - n);
  }
  const spent = iris.envelope();
  assert.ok(spent.observation.tools.some((t) => t.action === "message" && !t.ready));
  assert.ok(!spent.affordances.some((a) => a.action === "message"));
  refused(
    iris,
    "message",
    { to: "runner-1", text: "one more" },
    /^You have sent all 12 of your messages \(max_messages\); you cannot send more\.$/,
  );
  assert.equal(run.events().filter((e) => e.kind === "message").length, 12);
});

test("signal_relay's keypad refusals", () => {
  const { run } = remoteRun("signal_relay", { controlled: ["runner-1"], npcPolicy: "none" });
  const tom = new RemoteAgent(run, "runner-1");
  refused(
    tom,
    "enter_code",
    { code: "0000" },
    /^The keypad is at the gate \(station:11,4\); go there first\.$/,
  );
  tom.act("move_to", { dest: "gate" });
  tom.waitFor((e) => e.observation.you.place === "gate");
  const wrong = "0000";
  refused(
    tom,
    "enter_code",
    { code: wrong },
    /^The gate stays shut: 0000 is not the code\. The vault's code book gives the code for this gate's plate/,
  );
  refused(tom, "move_to", { dest: "vault" }, /^No open path leads from station:11,4 to vault/);
});

test("signal_relay's keypad locks for good after three wrong codes, and the run fails at once", async () => {
  const { run } = remoteRun("signal_relay", { controlled: ["runner-1"], npcPolicy: "none" });
  const tom = new RemoteAgent(run, "runner-1");
  tom.act("move_to", { dest: "gate" });
  tom.waitFor((e) => e.observation.you.place === "gate");
  refused(tom, "enter_code", { code: "0000" }, /is not the code\./);
  refused(tom, "enter_code", { code: "0001" }, /is not the code\./);
  const third = tom.send({ action: "enter_code", args: { code: "0002" } });
  assert.match(run.receipt("runner-1", third.command_id)!.outcome_reason, /the keypad has locked\.$/);
  const summary = await run.whenEnded();
  assert.equal(summary.status, "failed");
  assert.equal(summary.status_reason, "objective open_gate failed: the keypad locked after 3 wrong codes");
  assert.ok(summary.sim_time_ms < 15_000, "before the deadline");
});

test("max_sight: at most 40 things are listed, 40 exactly when there are 40", () => {
  for (const [count, shown] of [
    [40, 40],
    [41, 40],
    [39, 39],
  ] as const) {
    const { run } = remoteRun(yardScenario(["a-1"], count), { controlled: ["a-1"] });
    const seen = run.outstanding("a-1")!.observation;
    assert.equal(seen.place.items.length, shown, `${count} pebbles`);
  }
});

test("a repaired bridge refuses more repair, and opens the way to the clinic", () => {
  const { run } = remoteRun("bridge_repair", { seed: 3, controlled: ["engineer-1"], npcPolicy: "solution" });
  const sam = new RemoteAgent(run, "engineer-1");
  sam.act("take", { item: "toolbox-1" });
  sam.act("move_to", { dest: "bridge" });
  let repairs = 0;
  for (let i = 0; i < 200; i++) {
    const e = sam.envelope();
    if (e.observation.objectives.find((o) => o.id === "repair")?.status === "completed") break;
    const ready = e.observation.tools.find((t) => t.action === "repair")?.ready;
    if (ready) {
      assert.equal(sam.act("repair").outcome, "accepted");
      repairs++;
    } else sam.send({ sleep_ms: 2000 });
  }
  assert.equal(repairs, 2);
  const done = sam.envelope();
  assert.equal(done.observation.place.features.span, "repaired");
  assert.ok(done.affordances.find((a) => a.action === "move_to")!.params.dest!.choices.includes("clinic"));
  refused(sam, "repair", {}, /^The bridge is already fully repaired\.$/);
});
