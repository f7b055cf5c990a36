import type { SeededRandom } from "../../engine/random.js";
import type { World } from "../../engine/world.js";

/** The houses, west of the post office then east of it. */
export const HOUSES = [
  ["house_a", 1, 1],
  ["house_b", 1, 4],
  ["house_c", 1, 7],
  ["house_d", 4, 8],
  ["house_e", 13, 1],
  ["house_f", 13, 4],
  ["house_g", 13, 7],
  ["house_h", 10, 8],
] as const;

/** Who lives where: the dispatcher knows it by heart (its briefing); nobody else does. */
export const RESIDENTS: Readonly<Record<string, string>> = {
  house_a: "the Vargas",
  house_b: "the Oseis",
  house_c: "the Lindqvists",
  house_d: "the Moreaus",
  house_e: "the Tanakas",
  house_f: "the Brennans",
  house_g: "the Haddads",
  house_h: "the Kowalskis",
};

/**
 * The town: the post office in the middle, where eight parcels wait; eight houses around it. The
 * dispatcher's ledger, which only the dispatcher reads, says whom each parcel is for, never which
 * house: that takes knowing who lives where. The seed shuffles the addresses.
 */
export function buildTown(world: World, rng: SeededRandom): void {
  world.addSpace("town", 15, 10);
  world.addPlaceAt(
    "town",
    "post_office",
    "the post office",
    7,
    4,
    "The sorting room: parcels wait here. The dispatcher's ledger lies on the desk.",
  );
  for (const [id, x, y] of HOUSES) {
    world.addPlaceAt(
      "town",
      id,
      `house ${id.slice(-1).toUpperCase()}`,
      x,
      y,
      "A front door and a letterbox.",
    );
  }
  const addresses = rng.shuffled(HOUSES.map(([id]) => id));
  const office = world.places.get("post_office")!.cell;
  addresses.forEach((house, i) => {
    const id = `parcel-${i + 1}`;
    world.flags.set(`address_${id}`, house);
    world.addItem(
      { id, name: "parcel", kind: "parcel", props: { carriable_by: ["courier"] } },
      { at: "cell", cell: office },
    );
  });
}

/** Every parcel still to deliver, with its address. */
export function addresses(world: World): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of world.items.values()) {
    if (item.kind === "parcel" && item.location.at !== "gone")
      out[item.id] = String(world.flags.get(`address_${item.id}`));
  }
  return out;
}
