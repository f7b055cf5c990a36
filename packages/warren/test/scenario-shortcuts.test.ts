import assert from "node:assert/strict";
import { test } from "node:test";
import type { Decision, Envelope, Observation, RunSummary } from "../src/engine/index.js";
import { ManualClock, Run } from "../src/engine/index.js";
import { releaseOrder } from "../src/scenarios/dam_release/map.js";
import { findScenario } from "../src/scenarios/index.js";
import { act, wait, walking } from "./helpers/decisions.js";
import { completedSeeds } from "./helpers/discrimination.js";
import { playRemotely, RemoteAgent, remoteRun } from "./helpers/engine-runs.js";

/**
 * Ways to win without doing what a scenario asks, each played out: they must lose. Each of these
 * players won on the earlier rules (a lever re-stamped by every pull, three spillways to guess
 * from, a farmer free to pick any field).
 */

/** The dam's two operators played by `decide` (per agent), the supervisor on its solution runner. */
async function operatorsPlay(
  seed: number,
  decide: Record<string, (envelope: Envelope) => Decision>,
): Promise<RunSummary> {
  const operators = Object.keys(decide);
  const run = new Run({
    runId: "x",
    scenario: findScenario("dam_release")!,
    seed,
    controlledAgents: operators,
    clock: new ManualClock(),
  });
  playRemotely(run, operators, (envelope) => decide[envelope.agent_id]!(envelope));
  run.start();
  return run.whenEnded();
}

/** The first spillway of the order the supervisor tells, once told. */
function toldFirst(): (o: Observation) => number | undefined {
  let first: number | undefined;
  return (o) => {
    for (const m of o.messages)
      first ??= Number(/order:?\s*(\d)/i.exec(m.text)?.[1] ?? Number.NaN) || undefined;
    return first;
  };
}

test("dam_release: pulling a lever again and again does not stretch its window; the lone lever springs back", async () => {
  for (const seed of [1, 2, 3]) {
    const northFirst = toldFirst();
    const southFirst = toldFirst();
    let southWaited = false;
    const summary = await operatorsPlay(seed, {
      // Pulls on every wake, every half second, never saying a word.
      "operator-n": ({ observation: o }) => {
        const first = northFirst(o);
        if (first === undefined || walking(o)) return wait(500);
        if (o.you.place !== `north_lever_${first}`) return act("move_to", { dest: `north_lever_${first}` });
        return o.reason === "refused" ? wait(500) : act("pull_lever");
      },
      // Pulls once, five seconds after reaching its lever.
      "operator-s": ({ observation: o }) => {
        const first = southFirst(o);
        if (first === undefined || walking(o)) return wait(500);
        if (o.you.place !== `south_lever_${first}`) return act("move_to", { dest: `south_lever_${first}` });
        if (!southWaited) {
          southWaited = true;
          return wait(5000);
        }
        return { kind: "noop" };
      },
    });
    assert.equal(summary.status, "failed");
    assert.match(summary.status_reason, /north lever of spillway \d sprang back unpaired/);
    assert.equal(summary.objectives.find((o) => o.id === "release")!.progress.current, 0, `seed ${seed}`);
  }
});

test("dam_release: a pulled lever is held for its window: no second pull can restart it", () => {
  const { run } = remoteRun("dam_release", { seed: 2, controlled: ["supervisor-1", "operator-n"] });
  const una = new RemoteAgent(run, "supervisor-1");
  const vik = new RemoteAgent(run, "operator-n");
  const first = releaseOrder(run.world)[0];
  una.send({ sleep_ms: 600_000 });
  vik.act("move_to", { dest: `north_lever_${first}` });
  vik.waitFor((e) => e.observation.you.place === `north_lever_${first}`);
  vik.act("pull_lever");
  assert.equal(run.outstanding("operator-n"), undefined, "holding the lever, the operator is busy");
  const held = run.events().filter((e) => e.kind === "action_started" && e.data.action === "pull_lever");
  const pull = held.at(-1)!;
  assert.equal(pull.data.until_ms, pull.sim_time_ms + 2001, "held for the window and a millisecond");
});

test("dam_release: a team that guesses the order, timing its pulls perfectly, completes at most 2 of seeds 1–50", async () => {
  // The levers nearest the huts first (the highest-numbered), with both operators always arriving
  // and pulling in the same millisecond: what a team that never reads the board does best.
  const guesser =
    (bank: string) =>
    ({ observation: o, affordances }: Envelope): Decision => {
      if (walking(o)) return wait(500);
      const release = o.objectives.find((g) => g.id === "release")!;
      const levers = (affordances.find((a) => a.action === "move_to")?.params.dest?.choices ?? [])
        .map(String)
        .filter((d) => d.startsWith(`${bank}_lever_`))
        .concat(o.you.place?.startsWith(`${bank}_lever_`) ? [o.you.place] : [])
        .sort()
        .reverse();
      const lever = levers[release.progress.current];
      if (release.status !== "pending" || !lever) return { kind: "noop" };
      return o.you.place === lever ? act("pull_lever") : act("move_to", { dest: lever });
    };
  const won: number[] = [];
  for (let seed = 1; seed <= 50; seed++) {
    const summary = await operatorsPlay(seed, {
      "operator-n": guesser("north"),
      "operator-s": guesser("south"),
    });
    if (summary.status === "completed") won.push(seed);
  }
  assert.ok(won.length <= 2, `guessed right on seeds ${won.join(", ")}`);
});

/**
 * A farmer that never reads the rota, played as the greedy baseline played it when this shortcut
 * was found: take what lies here, carry it to the market, else walk to a field not yet visited.
 */
const rotaBlindFarmer = () => {
  const visited = new Set<string>();
  return ({ observation: o, affordances }: Envelope): Decision => {
    if (o.you.place) visited.add(o.you.place);
    if (walking(o)) return wait(500);
    const held = o.you.inventory.map((i) => i.id);
    if (held.length > 0 && o.you.place === "market") return act("drop", { item: held[0]! });
    const take = affordances.find((a) => a.action === "take");
    const crate = take?.params.item?.choices[0];
    if (crate !== undefined) return act("take", { item: crate });
    if (held.length > 0) return act("move_to", { dest: "market" });
    const field = ["north_field", "east_field", "south_field", "west_field"].find((f) => !visited.has(f));
    return field ? act("move_to", { dest: field }) : { kind: "noop" };
  };
};

test("harvest_rush: a lone rota-blind farmer, or a greedy one, beside the solution farmers never brings the harvest in (seeds 1–20)", async () => {
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  for (const farmer of ["farmer-1", "farmer-2", "farmer-3"]) {
    for (const how of [rotaBlindFarmer, "greedy" as const]) {
      const { completed } = await completedSeeds("harvest_rush", farmer, how, seeds);
      assert.deepEqual(
        completed,
        [],
        `${typeof how === "string" ? how : "rota-blind"} ${farmer} completed seeds ${completed.join(", ")}`,
      );
    }
  }
});

test("harvest_rush: a farmer cannot pick another farmer's field", () => {
  const { run } = remoteRun("harvest_rush", { seed: 4, controlled: ["farmer-1"], npcPolicy: "none" });
  const ana = new RemoteAgent(run, "farmer-1");
  const rota = ana.envelope().observation.place.features.rota as Record<string, string>;
  ana.act("move_to", { dest: rota["farmer-2"]! });
  const there = ana.waitFor((e) => e.observation.you.place === rota["farmer-2"]);
  const crate = there.observation.place.items.find((i) => i.kind === "crate")!;
  assert.ok(!there.affordances.some((a) => a.action === "take"), "no take is offered at another's field");
  const refused = ana.send({ action: "take", args: { item: crate.id } });
  const receipt = run.receipt("farmer-1", refused.command_id)!;
  assert.equal(receipt.outcome, "rejected");
  assert.match(receipt.outcome_reason, /another farmer's to pick: keep to your own field on the rota/);
});
