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

/** The red line on every reservoir gauge, in tenths of a metre. */
export const RED_LINE = 50;

/**
 * The dam: a river along row 3 that nobody can cross; on each bank a hut and five lever
 * stations, one per spillway (north_lever_K, south_lever_K). The control room on the north bank
 * shows the supervisor a gauge per spillway. The seed picks three spillways and their order (one
 * of sixty, so an order is not there to be guessed); their gauges read above the red line, the
 * first highest, the other two below it. The order is the supervisor's to work out: the board
 * never states it.
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
    "Gauges, one for the water behind each spillway, on a board with a red line.",
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
  const order = rng.shuffled(SPILLWAYS).slice(0, RELEASED);
  world.flags.set("order", order.join(","));
  world.flags.set("opened", 0);
  const above = distinctNumbers(rng, RED_LINE + 1, 99, RELEASED).sort((a, b) => b - a);
  const below = distinctNumbers(rng, 10, RED_LINE - 1, SPILLWAYS.length - RELEASED);
  for (const k of SPILLWAYS) {
    const rank = order.indexOf(k);
    world.flags.set(`gauge_${k}`, rank >= 0 ? above[rank]! : below.pop()!);
  }
}

/** `count` different whole numbers from `low` to `high`. */
function distinctNumbers(rng: SeededRandom, low: number, high: number, count: number): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const n = low + rng.int(high - low + 1);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** What the gauges read, in metres: "spillway 1: 3.2 m, spillway 2: 7.4 m, …". */
export function gaugeReadings(world: World): string {
  return SPILLWAYS.map((k) => `spillway ${k}: ${metres(Number(world.flags.get(`gauge_${k}`)))}`).join(", ");
}

/** Tenths of a metre as a gauge shows them: "7.4 m". */
export function metres(tenths: number): string {
  return `${(tenths / 10).toFixed(1)} m`;
}

export function releaseOrder(world: World): number[] {
  return String(world.flags.get("order")).split(",").map(Number);
}
