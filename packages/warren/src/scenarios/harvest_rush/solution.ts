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

/**
 * A farmer: read the rota at the market, fetch two crates at a time from its own field until it
 * is bare (nobody else may pick them). Crates go down only at the market.
 */
function farmer(agentId: string): SolutionRunner {
  let own: string | undefined;
  const cratesAt = new Map<string, number>();
  return {
    decide(o: Observation): Decision {
      const posted = o.place.features.rota as Record<string, string> | undefined;
      if (posted) own = posted[agentId];
      for (const item of [...o.place.items, ...o.nearby.items]) {
        const field = FIELD_BY_CELL[item.cell];
        if (item.kind === "crate" && field) cratesAt.set(field, 0);
      }
      for (const item of [...o.place.items, ...o.nearby.items]) {
        const field = FIELD_BY_CELL[item.cell];
        if (item.kind === "crate" && field) cratesAt.set(field, cratesAt.get(field)! + 1);
      }
      const here = o.you.place;
      if (here && FIELDS.includes(here as (typeof FIELDS)[number]))
        cratesAt.set(here, lyingHere(o, "crate").length);
      if (o.objectives.every((g) => g.status !== "pending")) return NOOP;
      if (bodyBusy(o)) return sleep(5000);
      const held = carrying(o, "crate");
      if (here === "market" && held.length > 0) return act("drop", { item: held[0]! });
      const crate = here && here !== "market" ? lyingHere(o, "crate")[0] : undefined;
      if (crate && o.you.budgets_left.inventory > 0) return act("take", { item: crate });
      if (held.length > 0) return act("move_to", { dest: "market" });
      if (!own) return here === "market" ? sleep(1000) : act("move_to", { dest: "market" });
      if ((cratesAt.get(own) ?? 0) > 0) return act("move_to", { dest: own });
      return here === "market" ? NOOP : act("move_to", { dest: "market" });
    },
  };
}

export function harvestRushSolution(agentId: string): SolutionRunner {
  if (!["farmer-1", "farmer-2", "farmer-3"].includes(agentId))
    throw new Error(`harvest_rush has no agent ${agentId}`);
  return farmer(agentId);
}
