/**
 * A scenario of two agents, small enough to read at once: the one the README's "Write a scenario"
 * walks through. Check it with
 *
 *   npx warren scenario check examples/beacon-scenario.ts
 *
 * The lantern lies in one of four huts (the seed picks which); only the watcher, on the hill, sees
 * the chimneys, and the lantern's hut is the one whose chimney is cold. Only the carrier can carry
 * the lantern to the beacon, in time only if told the hut at once.
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

/** Works out the hut with the cold chimney and tells the carrier, once. */
function watcher(): SolutionRunner {
  let told = false;
  return {
    decide(o) {
      const smoke = o.place.features.smoke;
      if (told || typeof smoke !== "string") return NOOP;
      told = true;
      const cold = Object.keys(HUTS).find((h) => !smoke.includes(h));
      return act("message", { to: "carrier-1", text: `The lantern is in the ${cold}.` });
    },
  };
}

/** The hut a whole message names as the watcher's word is given: "The lantern is in the east_hut." */
function hutIn(text: string): string | undefined {
  const hut = /^the lantern is in the (\w+)\.?$/i.exec(text.trim())?.[1];
  return hut && hut in HUTS ? hut : undefined;
}

/** Waits for the watcher's word, fetches the lantern and puts it down at the beacon. */
function carrier(): SolutionRunner {
  let hut: string | undefined;
  return {
    decide(o) {
      for (const m of o.messages) hut ??= hutIn(m.text);
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
    "The watcher works out which hut holds the lantern; the carrier alone can bring it to the beacon. Needs both.",
  notes: `The lantern lies in one of four huts around the beacon. A lantern put down anywhere but the beacon goes out. The beacon must be lit by t=${LIGHT_BY_MS / 1000}s.`,
  roleNotes: {
    watcher:
      'You are the watcher: from the hill you see which huts\' chimneys smoke. The shepherd who left the lantern is out on the moor, so its hut is the one with a cold chimney. You cannot carry the lantern. Tell the carrier its hut in a message of its own, like "The lantern is in the east_hut."',
    carrier:
      'You are the carrier: only you can carry the lantern, but you see only the place where you stand. The watcher tells you its hut, like "The lantern is in the east_hut."',
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
  // What an agent reads at a place: the hill shows the watcher, and only the watcher, the huts whose
  // chimneys smoke. The lantern's hut is left for the watcher to work out, so passing on what the
  // hill shows is not enough.
  placeFeatures(world, place, viewer): Record<string, FeatureValue> {
    if (place.id !== "hill" || viewer.role !== "watcher") return {};
    const cold = world.flags.get("lantern_hut");
    return {
      smoke: Object.keys(HUTS)
        .filter((h) => h !== cold)
        .join(", "),
    };
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
