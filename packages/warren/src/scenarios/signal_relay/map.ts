import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/**
 * The station: the keeper is sealed in the vault, where the gate's code is posted; the runner is
 * free but far from the vault. The code (four digits) comes from the seed.
 */
export function buildStation(world: World, rng: SeededRandom): void {
  const station = world.addSpace("station", 12, 9);
  for (let y = 0; y <= 2; y++)
    for (let x = 0; x <= 2; x++) if (x !== 1 || y !== 1) station.setBlocked(x, y, true);
  world.flags.set("code", String(rng.int(10_000)).padStart(4, "0"));
  world.flags.set("gate_open", false);
  world.addPlaceAt(
    "station",
    "vault",
    "the sealed vault",
    1,
    1,
    "Thick walls on every side; the door is sealed from outside.",
  );
  world.addPlaceAt("station", "camp", "the camp", 4, 7, "A few tents by the road.");
  world.addPlaceAt("station", "tower", "the radio tower", 8, 1, "The tower hums; nothing to do here.");
  world.addPlaceAt("station", "gate", "the outer gate", 11, 4, "A heavy gate with a four-digit keypad.");
}
