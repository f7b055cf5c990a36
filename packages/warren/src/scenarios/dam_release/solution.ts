import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, NOOP, sleep } from "../observing.js";

/** "Order: 2, 3, 1" → [2, 3, 1]. */
function orderIn(text: string): number[] | undefined {
  const m = /order:?\s*(\d)\s*,\s*(\d)\s*,\s*(\d)/i.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** The spillway a "ready for spillway K" message names. */
function readyIn(text: string): number | undefined {
  const m = /ready for spillway (\d)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The supervisor reads the board and tells both operators the order. */
function supervisor(): SolutionRunner {
  const told: string[] = [];
  return {
    decide(o: Observation): Decision {
      const order = o.place.features.release_order;
      const to = ["operator-n", "operator-s"].find((id) => !told.includes(id));
      if (typeof order !== "string" || !to) return NOOP;
      told.push(to);
      return act("message", { to, text: `Release order: ${order}.` });
    },
  };
}

/**
 * An operator: for each spillway in the order, walk to its lever on its own bank, tell the other
 * operator "ready for spillway K", and pull as soon as the other is ready for the same spillway.
 */
function operator(bank: "north" | "south", partner: string): SolutionRunner {
  let order: number[] | undefined;
  const partnerReady = new Set<number>();
  const announced = new Set<number>();
  const pulled = new Set<number>();
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages) {
        order = orderIn(m.text) ?? order;
        const ready = readyIn(m.text);
        if (ready !== undefined) partnerReady.add(ready);
      }
      const progress = o.objectives.find((g) => g.id === "release")!;
      if (progress.status !== "pending") return NOOP;
      if (bodyBusy(o)) return sleep(2000);
      if (!order) return sleep(5000);
      const next = order[progress.progress.current]!;
      const station = `${bank}_lever_${next}`;
      if (o.you.place !== station) return act("move_to", { dest: station });
      if (!announced.has(next)) {
        announced.add(next);
        return act("message", { to: partner, text: `I am ready for spillway ${next}.` });
      }
      if (partnerReady.has(next) && !pulled.has(next)) {
        pulled.add(next);
        return act("pull_lever");
      }
      return sleep(5000);
    },
  };
}

export function damReleaseSolution(agentId: string): SolutionRunner {
  if (agentId === "supervisor-1") return supervisor();
  if (agentId === "operator-n") return operator("north", "operator-s");
  if (agentId === "operator-s") return operator("south", "operator-n");
  throw new Error(`dam_release has no agent ${agentId}`);
}
