import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/**
 * The valley: a river runs north–south at x=6; its only crossing is the bridge, whose span is
 * broken. West bank: the workshop (toolbox), the watchtower, the depot (medkits) and four timber
 * stacks, two of which hold a sound plank. East bank: the clinic. The bridge's row and which
 * stacks hold the planks depend on the seed.
 */
export const RIVER_X = 6;
export const STACKS = ["sawmill", "woodpile", "barn", "boatshed"] as const;

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
  const [first, second] = rng.shuffled(STACKS);
  for (const [n, stack] of [first!, second!].entries()) {
    world.addItem(
      { id: `plank-${n + 1}`, name: "heavy plank", kind: "plank", props: { carriable_by: ["courier"] } },
      at(stack),
    );
  }
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
