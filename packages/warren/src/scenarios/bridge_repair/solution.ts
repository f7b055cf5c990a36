import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, objectiveDone, sleep } from "../observing.js";

const WAIT_MS = 5000;
const PLANK_SOURCES = ["depot", "sawmill"] as const;

/** Sam: fetch the toolbox, wait at the bridge for planks, repair until the span stands. */
function engineer(): SolutionRunner {
  return {
    decide(o: Observation): Decision {
      if (objectiveDone(o, "repair")) return NOOP;
      if (bodyBusy(o)) return sleep(WAIT_MS);
      if (carrying(o, "toolbox").length === 0) {
        const toolbox = lyingHere(o, "toolbox")[0];
        if (toolbox) return act("take", { item: toolbox });
        return o.you.place === "workshop" ? sleep(WAIT_MS) : act("move_to", { dest: "workshop" });
      }
      if (o.you.place !== "bridge") return act("move_to", { dest: "bridge" });
      if (lyingHere(o, "plank").length > 0) return act("repair");
      return sleep(WAIT_MS);
    },
  };
}

/**
 * A carrier of medkits, once the bridge stands: from the depot to the clinic until the clinic is
 * resupplied. If another agent took the depot's medkits first, it waits.
 */
function deliverMedkits(o: Observation): Decision {
  if (objectiveDone(o, "resupply")) return NOOP;
  const held = carrying(o, "medkit")[0];
  if (held)
    return o.you.place === "clinic" ? act("drop", { item: held }) : act("move_to", { dest: "clinic" });
  if (o.you.place !== "depot") return act("move_to", { dest: "depot" });
  const medkit = lyingHere(o, "medkit")[0];
  return medkit ? act("take", { item: medkit }) : sleep(WAIT_MS * 2);
}

/** The courier: gather the planks (depot, then sawmill), lay them at the bridge, then carry medkits. */
function courier(): SolutionRunner {
  const visited = new Set<string>();
  return {
    decide(o: Observation): Decision {
      if (bodyBusy(o)) return sleep(WAIT_MS);
      if (o.you.place) visited.add(o.you.place);
      const planksHeld = carrying(o, "plank");
      const repaired = objectiveDone(o, "repair");
      if (!repaired) {
        const plankHere = o.you.place !== "bridge" ? lyingHere(o, "plank")[0] : undefined;
        if (plankHere) return act("take", { item: plankHere });
        const unvisited = PLANK_SOURCES.find((p) => !visited.has(p));
        if (planksHeld.length > 0 && (planksHeld.length >= 2 || !unvisited)) {
          return o.you.place === "bridge"
            ? act("drop", { item: planksHeld[0]! })
            : act("move_to", { dest: "bridge" });
        }
        if (unvisited) return act("move_to", { dest: unvisited });
        if (o.you.place === "depot" && lyingHere(o, "medkit").length > 0) {
          return act("take", { item: lyingHere(o, "medkit")[0]! });
        }
        return o.you.place === "depot" ? sleep(WAIT_MS * 2) : act("move_to", { dest: "depot" });
      }
      return deliverMedkits(o);
    },
  };
}

/** The lookout helps with the medkits once the bridge stands; before that it waits at the depot. */
function lookout(): SolutionRunner {
  return {
    decide(o: Observation): Decision {
      if (bodyBusy(o)) return sleep(WAIT_MS);
      if (!objectiveDone(o, "repair")) {
        return o.you.place === "depot" ? sleep(WAIT_MS * 2) : act("move_to", { dest: "depot" });
      }
      return deliverMedkits(o);
    },
  };
}

export function bridgeRepairSolution(agentId: string): SolutionRunner {
  if (agentId === "engineer-1") return engineer();
  if (agentId === "courier-1") return courier();
  if (agentId === "lookout-1") return lookout();
  throw new Error(`bridge_repair has no agent ${agentId}`);
}
