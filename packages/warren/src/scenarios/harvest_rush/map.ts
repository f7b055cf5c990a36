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
  const place = (id: string, name: string, x: number, y: number, description: string): void =>
    world.addPlace({ id, name, description, cell: { space: "farm", x, y } });
  place("market", "the market", 7, 7, "Buyers wait for the harvest; crates put down here are sold.");
  place("north_field", "the north field", 7, 1, "Rows of apple trees.");
  place("east_field", "the east field", 13, 7, "Pear trees and a cart track.");
  place("south_field", "the south field", 7, 13, "Plum trees by the stream.");
  place("west_field", "the west field", 1, 7, "Cherry trees on a slope.");
  const [first, second] = rng.shuffled(FIELDS);
  for (let n = 1; n <= CRATES; n++) {
    const field = world.places.get(rng.int(2) === 0 ? first! : second!)!;
    world.addItem(
      { id: `crate-${n}`, name: "crate of fruit", kind: "crate", props: {} },
      { at: "cell", cell: field.cell },
    );
  }
}
