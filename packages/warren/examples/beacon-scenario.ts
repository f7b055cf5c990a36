/**
 * A scenario of two agents, small enough to read at once: the one the README's "Write a scenario"
 * walks through. Check it with
 *
 *   npx warren scenario check examples/beacon-scenario.ts
 *
 * The lantern lies in one of four huts (the seed picks which); only the watcher, on the hill, can
 * see which one, and only the carrier can carry it to the beacon, in time only if told at once.
 */
import type { Decision, FeatureValue, ScenarioDefinition, SolutionRunner, ToolArgs } from "warren-sim";

/** The four huts around the beacon, at their cells of the 9×9 moor. */
const HUTS: Record<string, [x: number, y: number]> = {
  north_hut: [4, 0],
  east_hut: [8, 4],
  south_hut: [4, 8],
  west_hut: [0, 4],
};
const LIGHT_BY_MS = 12_000;

const act = (action: string, args: ToolArgs): Decision => ({ kind: "action", action, args });
const NOOP: Decision = { kind: "noop" };

/** Tells the carrier, once, the hut the hill shows. */
function watcher(): SolutionRunner {
  let told = false;
  return {
    decide(o) {
      const hut = o.place.features.lantern;
      if (told || typeof hut !== "string") return NOOP;
      told = true;
      return act("message", { to: "carrier-1", text: `The lantern is in the ${hut}.` });
    },
  };
}

/** Waits for the watcher's word, fetches the lantern and puts it down at the beacon. */
function carrier(): SolutionRunner {
  let hut: string | undefined;
  return {
    decide(o) {
      for (const m of o.messages) hut ??= Object.keys(HUTS).find((h) => m.text.includes(h));
      if (hut === undefined || o.busy.some((b) => b.lane === "body")) return NOOP;
      const held = o.you.inventory.find((i) => i.kind === "lantern");
      if (held)
        return o.you.place === "beacon" ? act("drop", { item: held.id }) : act("move_to", { dest: "beacon" });
      const here = o.place.items.find((i) => i.kind === "lantern");
      return here ? act("take", { item: here.id }) : act("move_to", { dest: hut });
    },
  };
}

const beacon: ScenarioDefinition = {
  name: "beacon",
  title: "Beacon",
  premise: "Light the beacon before the ships pass.",
  summary:
    "The watcher sees which hut holds the lantern; the carrier alone can bring it to the beacon. Needs both.",
  notes: `The lantern lies in one of four huts around the beacon. A lantern put down anywhere but the beacon goes out. The beacon must be lit by t=${LIGHT_BY_MS / 1000}s.`,
  roleNotes: {
    watcher: "You are the watcher: from the hill you see which hut holds the lantern. You cannot carry it.",
    carrier:
      "You are the carrier: only you can carry the lantern, but you see only the place where you stand.",
  },
  agents: [
    { id: "watcher-1", name: "Wren the watcher", role: "watcher", start: "hill" },
    { id: "carrier-1", name: "Cal the carrier", role: "carrier", start: "beacon" },
  ],
  objectives: [
    { id: "light", description: "Put the lantern down at the beacon.", target: 1, deadlineMs: LIGHT_BY_MS },
  ],
  timeLimitMs: LIGHT_BY_MS + 1,
  msPerCell: 1000,
  sightRadius: 0,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 1 },
  // The one credit a team earns: the lantern put down at the beacon.
  steps: 1,
  tools: [],
  build(world, rng) {
    world.addSpace("moor", 9, 9);
    world.addPlaceAt("moor", "beacon", "the beacon", 4, 4, "An unlit pile of wood.");
    world.addPlaceAt("moor", "hill", "the hill", 0, 0, "You can see every hut from here.");
    for (const [hut, [x, y]] of Object.entries(HUTS)) {
      world.addPlaceAt("moor", hut, hut.replace("_", " "), x, y, "A shepherd's hut.");
    }
    // Every choice a run makes comes from `rng`, seeded by the run's seed: never Math.random.
    const huts = Object.keys(HUTS);
    const hut = huts[rng.int(huts.length)]!;
    world.flags.set("lantern_hut", hut);
    world.addItem(
      { id: "lantern", name: "lantern", kind: "lantern", props: { carriable_by: ["carrier"] } },
      { at: "cell", cell: world.places.get(hut)!.cell },
    );
  },
  // What an agent reads at a place: the hill shows the watcher, and only the watcher, the lantern's hut.
  placeFeatures(world, place, viewer): Record<string, FeatureValue> {
    if (place.id !== "hill" || viewer.role !== "watcher") return {};
    return { lantern: String(world.flags.get("lantern_hut")) };
  },
  react(ctx, happening) {
    if (happening.kind !== "dropped" || happening.item.kind !== "lantern") return;
    if (ctx.world.placeAt(happening.agent.cell)?.id === "beacon") ctx.progress("light", 1);
    else ctx.fail("light", "the lantern went out on the moor");
  },
  solution: (agentId) => (agentId === "watcher-1" ? watcher() : carrier()),
  solvableWith: (agents) => agents.has("watcher-1") && agents.has("carrier-1"),
};

export default beacon;
