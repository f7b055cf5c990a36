import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

export const FIELDS = ["north_field", "east_field", "south_field", "west_field"] as const;
export const CRATES = 6;

/**
 * The farm: the market in the middle, four fields six cells away; the seed picks two fields and
 * scatters six crates over them. From the market every field is within sight.
 */
export function buildFarm(world: World, rng: SeededRandom): void {
  world.addSpace("farm", 15, 15);
  world.addPlaceAt(
    "farm",
    "market",
    "the market",
    7,
    7,
    "Buyers wait for the harvest; crates put down here are sold.",
  );
  world.addPlaceAt("farm", "north_field", "the north field", 7, 1, "Rows of apple trees.");
  world.addPlaceAt("farm", "east_field", "the east field", 13, 7, "Pear trees and a cart track.");
  world.addPlaceAt("farm", "south_field", "the south field", 7, 13, "Plum trees by the stream.");
  world.addPlaceAt("farm", "west_field", "the west field", 1, 7, "Cherry trees on a slope.");
  const [first, second] = rng.shuffled(FIELDS);
  for (let n = 1; n <= CRATES; n++) {
    const field = world.places.get(rng.int(2) === 0 ? first! : second!)!;
    world.addItem(
      { id: `crate-${n}`, name: "crate of fruit", kind: "crate", props: {} },
      { at: "cell", cell: field.cell },
    );
  }
}
