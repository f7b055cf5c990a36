import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, NOOP, sleep } from "../observing.js";

/** The order a whole message gives, as the supervisor's briefing says to give it: "Release order: 2, 3, 1." */
function orderIn(text: string): number[] | undefined {
  const m = /^release order: ([1-5]), ([1-5]), ([1-5])\.?$/i.exec(text.trim());
  const order = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [];
  return new Set(order).size === 3 ? order : undefined;
}

/** The spillways whose gauges read above the red line, the highest first. */
function orderFromGauges(gauges: string, redLine: string): number[] {
  const line = Number.parseFloat(redLine);
  return [...gauges.matchAll(/spillway (\d): (\d+\.\d) m/g)]
    .map((m) => ({ spillway: Number(m[1]), level: Number(m[2]) }))
    .filter((g) => g.level > line)
    .sort((a, b) => b.level - a.level)
    .map((g) => g.spillway);
}

/** The spillway a "ready for spillway K" message names. */
function readyIn(text: string): number | undefined {
  const m = /ready for spillway (\d)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The supervisor reads the gauges, works out the order and tells it to both operators. */
function supervisor(): SolutionRunner {
  const told: string[] = [];
  return {
    decide(o: Observation): Decision {
      const { gauges, red_line } = o.place.features;
      const to = ["operator-n", "operator-s"].find((id) => !told.includes(id));
      if (typeof gauges !== "string" || typeof red_line !== "string" || !to) return NOOP;
      told.push(to);
      return act("message", { to, text: `Release order: ${orderFromGauges(gauges, red_line).join(", ")}.` });
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
