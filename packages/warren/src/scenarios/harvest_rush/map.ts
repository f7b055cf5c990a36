import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

export const FIELDS = ["north_field", "east_field", "south_field", "west_field"] as const;
const FARMERS = ["farmer-1", "farmer-2", "farmer-3"] as const;
export const CRATES_PER_FIELD = 3;
export const CRATES = CRATES_PER_FIELD * FARMERS.length;

/**
 * The farm: the market in the middle, four fields six cells away. The seed picks three fields,
 * puts three crates in each and posts a rota at the market saying which farmer picks which
 * field; a crate is for its field's farmer alone to pick. From the market every field is within
 * sight.
 */
export function buildFarm(world: World, rng: SeededRandom): void {
  world.addSpace("farm", 15, 15);
  world.addPlaceAt(
    "farm",
    "market",
    "the market",
    7,
    7,
    "Buyers wait for the harvest; crates put down here are sold. The picking rota is posted here.",
  );
  world.addPlaceAt("farm", "north_field", "the north field", 7, 1, "Rows of apple trees.");
  world.addPlaceAt("farm", "east_field", "the east field", 13, 7, "Pear trees and a cart track.");
  world.addPlaceAt("farm", "south_field", "the south field", 7, 13, "Plum trees by the stream.");
  world.addPlaceAt("farm", "west_field", "the west field", 1, 7, "Cherry trees on a slope.");
  const fields = rng.shuffled(FIELDS).slice(0, FARMERS.length);
  let n = 0;
  for (const [i, field] of fields.entries()) {
    world.flags.set(`rota_${FARMERS[i]}`, field);
    const cell = world.places.get(field)!.cell;
    for (let k = 0; k < CRATES_PER_FIELD; k++) {
      n++;
      world.addItem(
        {
          id: `crate-${n}`,
          name: "crate of fruit",
          kind: "crate",
          props: {
            carriable_by: [FARMERS[i]!],
            carry_note: `crate-${n} is another farmer's to pick: keep to your own field on the rota.`,
          },
        },
        { at: "cell", cell },
      );
    }
  }
}

/** The rota as the market shows it: which farmer picks which field. */
export function rota(world: World): Record<string, string> {
  return Object.fromEntries(FARMERS.map((f) => [f, String(world.flags.get(`rota_${f}`))]));
}
