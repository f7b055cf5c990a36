import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, sleep } from "../observing.js";
import { HOUSES, RESIDENTS } from "./map.js";
import { roundIn } from "./rules.js";

const WEST: ReadonlySet<string> = new Set(HOUSES.slice(0, 4).map(([id]) => id));
const ORDER: readonly string[] = HOUSES.map(([id]) => id);

/** The house each family lives in, as the dispatcher knows it. */
const HOUSE_OF = new Map(Object.entries(RESIDENTS).map(([house, family]) => [`for ${family}`, house]));

/**
 * The dispatcher: read whom each parcel is for, find their house, and give the west-side parcels
 * to courier-1 and the east side to courier-2.
 */
function dispatcher(): SolutionRunner {
  const sent = new Set<string>();
  return {
    decide(o: Observation): Decision {
      const book = o.place.features.ledger as Record<string, string> | undefined;
      const to = ["courier-1", "courier-2"].find((id) => !sent.has(id));
      if (!to || !book) return NOOP;
      sent.add(to);
      const pairs = Object.entries(book)
        .map(([parcel, whom]) => [parcel, HOUSE_OF.get(whom)!] as const)
        .filter(([, house]) => WEST.has(house) === (to === "courier-1"));
      // Deliver in the order the houses lie, so each trip walks from one door to the next.
      pairs.sort((a, b) => ORDER.indexOf(a[1]) - ORDER.indexOf(b[1]));
      return act("message", { to, text: `Your round: ${pairs.map(([p, h]) => `${p} to ${h}`).join(", ")}.` });
    },
  };
}

/** A courier: wait for its round, then take two of its parcels at a time and deliver them in order. */
function courier(): SolutionRunner {
  const round: [string, string][] = [];
  const done = new Set<string>();
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages) round.push(...roundIn(m.text));
      if (bodyBusy(o)) return sleep(2000);
      const held = carrying(o, "parcel");
      const here = o.you.place;
      const drop = round.find(([p, house]) => held.includes(p) && house === here);
      if (drop) {
        done.add(drop[0]);
        return act("drop", { item: drop[0] });
      }
      const lying = lyingHere(o, "parcel");
      const take = round.find(([p]) => lying.includes(p));
      if (here === "post_office" && take && o.you.budgets_left.inventory > 0)
        return act("take", { item: take[0] });
      const next = round.find(([p]) => held.includes(p));
      if (next) return act("move_to", { dest: next[1] });
      const left = round.some(([p]) => !done.has(p));
      if (!left) return NOOP;
      return here === "post_office" ? sleep(2000) : act("move_to", { dest: "post_office" });
    },
  };
}

export function parcelDispatchSolution(agentId: string): SolutionRunner {
  if (agentId === "dispatcher-1") return dispatcher();
  if (agentId === "courier-1" || agentId === "courier-2") return courier();
  throw new Error(`parcel_dispatch has no agent ${agentId}`);
}
