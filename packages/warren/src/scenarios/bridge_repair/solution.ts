import { parseCell } from "../../engine/grid.js";
import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, objectiveDone, sleep } from "../observing.js";
import { DRY_SIGNS } from "./map.js";
import { soundStacksIn } from "./rules.js";

const WAIT_MS = 2000;
const STACK_CELLS: Record<string, string> = {
  sawmill: "valley:4,0",
  woodpile: "valley:0,4",
  barn: "valley:0,7",
  boatshed: "valley:5,7",
};

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

/** Kim: read the storm log at the tower, pick out the stacks that stayed dry and tell the courier. */
function lookout(): SolutionRunner {
  let told = false;
  return {
    decide(o: Observation): Decision {
      if (told) return NOOP;
      const log = o.place.features.storm_log;
      if (typeof log !== "string") return o.you.place === "tower" ? NOOP : act("move_to", { dest: "tower" });
      const dry = log
        .split("; ")
        .map((entry) => entry.split(": "))
        .filter(([, sign]) => DRY_SIGNS.some((d) => d === sign))
        .map(([stack]) => stack);
      told = true;
      return act("message", { to: "courier-1", text: `Sound planks: ${dry.join(", ")}.` });
    },
  };
}

function steps(from: string, to: string): number {
  const a = parseCell(from)!;
  const b = parseCell(to)!;
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

/**
 * Ada: take the medkits from the depot where she starts, fetch the planks from the stacks the
 * lookout names as sound, lay them at the bridge while the engineer stands there, then carry the
 * medkits across to the clinic.
 */
function courier(): SolutionRunner {
  const named = new Set<string>();
  const emptied = new Set<string>();
  let delivered = 0;
  let warned = false;
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages) for (const s of soundStacksIn(m.text)) named.add(s);
      if (bodyBusy(o)) return sleep(WAIT_MS);
      const here = o.you.place;
      const planks = carrying(o, "plank");
      // The medkits wait at the depot where the day starts: take them along from the outset.
      const medkitHere = here === "depot" ? lyingHere(o, "medkit")[0] : undefined;
      if (medkitHere) return act("take", { item: medkitHere });
      if (!objectiveDone(o, "repair")) {
        if (here && named.has(here)) {
          const plank = lyingHere(o, "plank")[0];
          if (plank) return act("take", { item: plank });
          emptied.add(here);
        }
        const unfetched = [...named].filter((s) => !emptied.has(s));
        if (planks.length > 0 && (planks.length + delivered >= 2 || unfetched.length === 0)) {
          if (!warned) {
            warned = true;
            return act("message", {
              to: "engineer-1",
              text: "Bringing the planks: wait for me at the bridge.",
            });
          }
          if (here !== "bridge") return act("move_to", { dest: "bridge" });
          if (!o.place.agents.some((a) => a.role === "engineer")) return sleep(1000);
          delivered++;
          return act("drop", { item: planks[0]! });
        }
        if (unfetched.length > 0) {
          const next = unfetched.sort(
            (a, b) => steps(o.you.cell, STACK_CELLS[a]!) - steps(o.you.cell, STACK_CELLS[b]!),
          )[0]!;
          return act("move_to", { dest: next });
        }
        if (named.size === 0) return sleep(WAIT_MS);
        return here === "bridge" ? sleep(WAIT_MS) : act("move_to", { dest: "bridge" });
      }
      if (objectiveDone(o, "resupply")) return NOOP;
      const medkits = carrying(o, "medkit");
      if (medkits.length > 0)
        return here === "clinic" ? act("drop", { item: medkits[0]! }) : act("move_to", { dest: "clinic" });
      return here === "depot" ? sleep(WAIT_MS) : act("move_to", { dest: "depot" });
    },
  };
}

export function bridgeRepairSolution(agentId: string): SolutionRunner {
  if (agentId === "engineer-1") return engineer();
  if (agentId === "courier-1") return courier();
  if (agentId === "lookout-1") return lookout();
  throw new Error(`bridge_repair has no agent ${agentId}`);
}
