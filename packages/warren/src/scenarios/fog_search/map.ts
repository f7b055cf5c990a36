import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

export const SIDE = 16;
export const SHEEP = 6;
/** How far from a cairn the spotter sees over the fog, in cells every way. */
export const CAIRN_SIGHT = 5;
/** Cairns the spotter climbs: from the four of them its sight covers the whole moor. */
export const CAIRNS = [
  ["nw_cairn", 4, 4],
  ["ne_cairn", 11, 4],
  ["sw_cairn", 4, 11],
  ["se_cairn", 11, 11],
] as const;

/**
 * The moor in fog: a square of open ground with the pen at the middle of its south edge and four
 * cairns. Six sheep stray on open ground; where, the seed decides: three on the west half, three
 * on the east.
 */
export function buildMoor(world: World, rng: SeededRandom): void {
  world.addSpace("moor", SIDE, SIDE);
  world.addPlaceAt(
    "moor",
    "pen",
    "the sheep pen",
    8,
    SIDE - 1,
    "A stone pen with a gate; sheep put down here are safe.",
  );
  for (const [id, x, y] of CAIRNS) {
    world.addPlaceAt(
      "moor",
      id,
      `the ${id.slice(0, 2).toUpperCase()} cairn`,
      x,
      y,
      "A pile of stones above the fog.",
    );
  }
  const taken = new Set([...world.places.values()].map((p) => `${p.cell.x},${p.cell.y}`));
  for (let n = 1; n <= SHEEP; n++) {
    const west = n <= SHEEP / 2;
    let x: number;
    let y: number;
    do {
      x = (west ? 0 : SIDE / 2) + rng.int(SIDE / 2);
      y = rng.int(SIDE - 2);
    } while (taken.has(`${x},${y}`));
    taken.add(`${x},${y}`);
    world.addItem(
      {
        id: `sheep-${n}`,
        name: "stray sheep",
        kind: "sheep",
        props: {
          carriable_by: ["shepherd"],
          carry_note: "The sheep shies away: only a shepherd can lift it.",
        },
      },
      { at: "cell", cell: { space: "moor", x, y } },
    );
  }
}
