import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/**
 * The valley: a river runs north–south at x=6; its only crossing is the bridge, whose span is
 * broken. West bank: workshop, depot, sawmill. East bank: the clinic. The bridge's row and where
 * the two planks lie (depot or sawmill) depend on the seed.
 */
export const RIVER_X = 6;

export function buildValley(world: World, rng: SeededRandom): void {
  const valley = world.addSpace("valley", 13, 8);
  const bridgeY = 2 + rng.int(4);
  for (let y = 0; y < valley.height; y++) valley.setBlocked(RIVER_X, y, true);
  world.flags.set("bridge_y", bridgeY);
  world.addPlaceAt("valley", "workshop", "the workshop", 1, 1, "Benches and tools; the engineer's home.");
  world.addPlaceAt("valley", "depot", "the supply depot", 2, 6, "Crates of supplies wait here.");
  world.addPlaceAt("valley", "sawmill", "the sawmill", 4, 0, "Fresh-cut timber is stacked here.");
  world.addPlaceAt(
    "valley",
    "bridge",
    "the bridge",
    RIVER_X - 1,
    bridgeY,
    "The west end of the bridge. Its span is broken.",
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
  world.addItem({ id: "toolbox-1", name: "toolbox", kind: "toolbox", props: {} }, at("workshop"));
  for (const n of [1, 2]) {
    const source = rng.int(2) === 0 ? "depot" : "sawmill";
    world.addItem(
      { id: `plank-${n}`, name: "heavy plank", kind: "plank", props: { carriable_by: ["courier"] } },
      at(source),
    );
  }
  for (const n of [1, 2])
    world.addItem({ id: `medkit-${n}`, name: "medkit", kind: "medkit", props: {} }, at("depot"));
}

export function spanCell(world: World): { x: number; y: number } {
  return { x: RIVER_X, y: Number(world.flags.get("bridge_y")) };
}
