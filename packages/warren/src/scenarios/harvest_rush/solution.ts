import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, sleep } from "../observing.js";
import { FIELDS } from "./map.js";

/**
 * A farmer: search the fields in its own order (each farmer starts with a different one), carry
 * crates to the market as soon as its hands are full or it knows of no more, and skip fields it
 * has seen empty.
 */
function farmer(firstField: number): SolutionRunner {
  const order = FIELDS.map((_, i) => FIELDS[(firstField + i) % FIELDS.length]!);
  const empty = new Set<string>();
  return {
    decide(o: Observation): Decision {
      if (o.objectives.every((g) => g.status !== "pending")) return NOOP;
      if (bodyBusy(o)) return sleep(5000);
      const held = carrying(o, "crate");
      const here = o.you.place;
      if (here === "market" && held.length > 0) return act("drop", { item: held[0]! });
      const crate = here && here !== "market" ? lyingHere(o, "crate")[0] : undefined;
      if (crate && o.you.budgets_left.inventory > 0) return act("take", { item: crate });
      if (here && here !== "market" && !crate) empty.add(here);
      const next = order.find((f) => !empty.has(f));
      if (held.length > 0 && (o.you.budgets_left.inventory === 0 || !next || here === next)) {
        return act("move_to", { dest: "market" });
      }
      if (!next) return held.length > 0 ? act("move_to", { dest: "market" }) : NOOP;
      return act("move_to", { dest: next });
    },
  };
}

export function harvestRushSolution(agentId: string): SolutionRunner {
  const index = ["farmer-1", "farmer-2", "farmer-3"].indexOf(agentId);
  if (index < 0) throw new Error(`harvest_rush has no agent ${agentId}`);
  return farmer(index);
}
