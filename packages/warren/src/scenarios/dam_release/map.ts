import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

export const SPILLWAYS = [1, 2, 3, 4, 5] as const;
/** How many spillways the board names, in the order they must open. */
export const RELEASED = 3;
const LEVER_X: Record<number, number> = { 1: 3, 2: 5, 3: 7, 4: 9, 5: 11 };

/** The bank whose levers an operator's role may pull. */
export const BANK_OF_ROLE: Record<string, "north" | "south"> = {
  north_operator: "north",
  south_operator: "south",
};

/**
 * The dam: a river along row 3 that nobody can cross; on each bank a hut and five lever
 * stations, one per spillway (north_lever_K, south_lever_K). The control room on the north bank
 * shows, to the supervisor, the three spillways the seed picks and the order they open in: one of
 * sixty, so an order is not there to be guessed.
 */
export function buildDam(world: World, rng: SeededRandom): void {
  const dam = world.addSpace("dam", 15, 7);
  for (let x = 0; x < dam.width; x++) dam.setBlocked(x, 3, true);
  world.addPlaceAt(
    "dam",
    "control_room",
    "the control room",
    0,
    1,
    "Gauges, and a board with the release order.",
  );
  world.addPlaceAt("dam", "north_hut", "the north hut", 14, 1, "The north operator's hut.");
  world.addPlaceAt("dam", "south_hut", "the south hut", 14, 5, "The south operator's hut.");
  for (const k of SPILLWAYS) {
    world.addPlaceAt(
      "dam",
      `north_lever_${k}`,
      `north lever ${k}`,
      LEVER_X[k]!,
      0,
      `The north lever of spillway ${k}.`,
    );
    world.addPlaceAt(
      "dam",
      `south_lever_${k}`,
      `south lever ${k}`,
      LEVER_X[k]!,
      6,
      `The south lever of spillway ${k}.`,
    );
  }
  world.flags.set("order", rng.shuffled(SPILLWAYS).slice(0, RELEASED).join(","));
  world.flags.set("opened", 0);
}

export function releaseOrder(world: World): number[] {
  return String(world.flags.get("order")).split(",").map(Number);
}
