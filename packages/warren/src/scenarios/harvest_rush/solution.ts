import { parseCell } from "../../engine/grid.js";
import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, sleep } from "../observing.js";
import { FIELDS } from "./map.js";

const FIELD_BY_CELL: Record<string, string> = {
  "farm:7,1": "north_field",
  "farm:13,7": "east_field",
  "farm:7,13": "south_field",
  "farm:1,7": "west_field",
};

function steps(from: string, to: string): number {
  const a = parseCell(from)!;
  const b = parseCell(to)!;
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

/**
 * A farmer: remember where crates were seen (the market overlooks every field), fetch from the
 * nearest field that still has some, and carry to the market when its hands are full or no crate
 * is known to be left. A field found empty on arrival is forgotten.
 */
function farmer(): SolutionRunner {
  const cratesAt = new Map<string, Set<string>>();
  const see = (o: Observation): void => {
    for (const item of [...o.place.items, ...o.nearby.items]) {
      const field = FIELD_BY_CELL[item.cell];
      if (item.kind !== "crate" || !field) continue;
      if (!cratesAt.has(field)) cratesAt.set(field, new Set());
      cratesAt.get(field)!.add(item.id);
    }
    if (o.you.place && FIELDS.includes(o.you.place as (typeof FIELDS)[number])) {
      cratesAt.set(o.you.place, new Set(lyingHere(o, "crate")));
    }
  };
  return {
    decide(o: Observation): Decision {
      see(o);
      if (o.objectives.every((g) => g.status !== "pending")) return NOOP;
      if (bodyBusy(o)) return sleep(5000);
      const held = carrying(o, "crate");
      const here = o.you.place;
      if (here === "market" && held.length > 0) return act("drop", { item: held[0]! });
      const crate = here && here !== "market" ? lyingHere(o, "crate")[0] : undefined;
      if (crate && o.you.budgets_left.inventory > 0) return act("take", { item: crate });
      const known = FIELDS.filter((f) => (cratesAt.get(f)?.size ?? 0) > 0);
      if (held.length > 0 && (o.you.budgets_left.inventory === 0 || known.length === 0)) {
        return act("move_to", { dest: "market" });
      }
      if (known.length === 0) return here === "market" ? NOOP : act("move_to", { dest: "market" });
      const fieldCell = (f: string) => Object.keys(FIELD_BY_CELL).find((c) => FIELD_BY_CELL[c] === f)!;
      const nearest = known.sort(
        (a, b) => steps(o.you.cell, fieldCell(a)) - steps(o.you.cell, fieldCell(b)),
      )[0]!;
      return act("move_to", { dest: nearest });
    },
  };
}

export function harvestRushSolution(agentId: string): SolutionRunner {
  if (!["farmer-1", "farmer-2", "farmer-3"].includes(agentId))
    throw new Error(`harvest_rush has no agent ${agentId}`);
  return farmer();
}
