import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/**
 * The valley: a river runs north–south at x=6; its only crossing is the bridge, whose span is
 * broken. West bank: the workshop (toolbox), the watchtower, the depot (medkits) and four timber
 * stacks, each holding a plank; the storm soaked two of them. East bank: the clinic. The bridge's
 * row, which stacks stayed dry and how the lookout's storm log tells it depend on the seed.
 */
export const RIVER_X = 6;
export const STACKS = ["sawmill", "woodpile", "barn", "boatshed"] as const;
/** How many stacks stayed dry: one sound plank per section of the span. */
export const SOUND_STACKS = 2;

/** What the storm log may say of a stack the storm soaked. */
export const SOAKED_SIGNS = [
  "the wind tore its tarp away",
  "the river rose over it",
  "rain poured through the roof above it",
  "it stood all night in a pool of water",
] as const;
/** What the storm log may say of a stack that stayed dry. */
export const DRY_SIGNS = [
  "its tarp held through the night",
  "it stayed under a tight roof",
  "the overhang kept the rain off it",
  "it sits on high ground, well covered",
] as const;

export function buildValley(world: World, rng: SeededRandom): void {
  const valley = world.addSpace("valley", 13, 8);
  const bridgeY = 2 + rng.int(4);
  for (let y = 0; y < valley.height; y++) valley.setBlocked(RIVER_X, y, true);
  world.flags.set("bridge_y", bridgeY);
  world.addPlaceAt("valley", "workshop", "the workshop", 1, 1, "Benches and tools; the engineer's home.");
  world.addPlaceAt(
    "valley",
    "tower",
    "the watchtower",
    3,
    3,
    "From the top you can see the whole west bank.",
  );
  world.addPlaceAt("valley", "depot", "the supply depot", 2, 6, "Sealed crates of medical supplies.");
  world.addPlaceAt("valley", "sawmill", "the sawmill", 4, 0, "A stack of timber.");
  world.addPlaceAt("valley", "woodpile", "the woodpile", 0, 4, "A stack of timber.");
  world.addPlaceAt("valley", "barn", "the old barn", 0, 7, "A stack of timber.");
  world.addPlaceAt("valley", "boatshed", "the boatshed", 5, 7, "A stack of timber.");
  world.addPlaceAt(
    "valley",
    "bridge",
    "the bridge",
    RIVER_X - 1,
    bridgeY,
    // What never changes: whether the span stands is the place's `span` feature, as it is now.
    "The west end of the bridge; the river runs fast below.",
  );
  world.addPlaceAt(
    "valley",
    "clinic",
    "the clinic",
    10,
    2,
    "The clinic across the river is short of medkits.",
  );
  const at = (placeId: string) => ({ at: "cell" as const, cell: world.places.get(placeId)!.cell });
  world.addItem(
    {
      id: "toolbox-1",
      name: "toolbox",
      kind: "toolbox",
      props: {
        carriable_by: ["engineer"],
        carry_note: "The toolbox is the engineer's; nobody else may take it.",
      },
    },
    at("workshop"),
  );
  const dry = rng.shuffled(STACKS).slice(0, SOUND_STACKS);
  const log: string[] = [];
  // Planks are numbered by stack, so an id tells nothing of which are sound.
  for (const [n, stack] of STACKS.entries()) {
    const id = `plank-${n + 1}`;
    const sound = dry.includes(stack);
    world.flags.set(`sound_${id}`, sound);
    const signs = sound ? DRY_SIGNS : SOAKED_SIGNS;
    log.push(`${stack}: ${signs[rng.int(signs.length)]}`);
    world.addItem(
      { id, name: "heavy plank", kind: "plank", props: { carriable_by: ["courier"] } },
      at(stack),
    );
  }
  world.flags.set("storm_log", log.join("; "));
  for (const n of [1, 2]) {
    world.addItem(
      {
        id: `medkit-${n}`,
        name: "medkit",
        kind: "medkit",
        props: {
          carriable_by: ["courier"],
          carry_note: "The medkits are sealed; only the courier may carry them.",
        },
      },
      at("depot"),
    );
  }
}

export function spanCell(world: World): { x: number; y: number } {
  return { x: RIVER_X, y: Number(world.flags.get("bridge_y")) };
}
