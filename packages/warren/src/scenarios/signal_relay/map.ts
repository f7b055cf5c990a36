import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/** The words that may be painted on the gate's plate; the vault's code book has a code for each. */
export const PLATES = [
  "amber",
  "birch",
  "cedar",
  "delta",
  "ember",
  "fjord",
  "garnet",
  "harbor",
  "indigo",
  "juniper",
  "kestrel",
  "lumen",
  "marble",
  "nectar",
  "onyx",
  "pepper",
  "quartz",
  "raven",
  "saffron",
  "tundra",
  "umber",
  "velvet",
  "willow",
  "xenon",
  "yarrow",
  "zephyr",
  "acorn",
  "basalt",
  "cobalt",
  "dune",
] as const;

/**
 * The station: the keeper is sealed in the vault, where a code book gives a four-digit code for
 * every plate the gate might carry; the runner is free but far from the vault. Which plate the
 * gate carries, and every code, come from the seed.
 */
export function buildStation(world: World, rng: SeededRandom): void {
  const station = world.addSpace("station", 12, 9);
  for (let y = 0; y <= 2; y++)
    for (let x = 0; x <= 2; x++) if (x !== 1 || y !== 1) station.setBlocked(x, y, true);
  const book: Record<string, string> = {};
  for (const plate of PLATES) book[plate] = String(rng.int(10_000)).padStart(4, "0");
  const plate = PLATES[rng.int(PLATES.length)]!;
  world.flags.set("plate", plate);
  world.flags.set("code", book[plate]!);
  world.flags.set(
    "code_book",
    Object.entries(book)
      .map(([p, c]) => `${p} ${c}`)
      .join(", "),
  );
  world.flags.set("gate_open", false);
  world.flags.set("wrong_codes", 0);
  world.addPlaceAt(
    "station",
    "vault",
    "the sealed vault",
    1,
    1,
    "Thick walls on every side; the door is sealed from outside. A code book hangs on the wall.",
  );
  world.addPlaceAt("station", "camp", "the camp", 4, 7, "A few tents by the road.");
  world.addPlaceAt("station", "tower", "the radio tower", 8, 1, "The tower hums; nothing to do here.");
  world.addPlaceAt(
    "station",
    "gate",
    "the outer gate",
    11,
    4,
    "A heavy gate with a four-digit keypad and a painted plate.",
  );
}
