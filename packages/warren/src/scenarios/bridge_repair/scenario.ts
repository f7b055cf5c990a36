import type { ScenarioDefinition } from "../../engine/scenario.js";
import { buildValley } from "./map.js";
import { bridgeFeatures, REPAIRS_NEEDED, reactToDrop, repair } from "./rules.js";
import { bridgeRepairSolution } from "./solution.js";

export const bridgeRepair: ScenarioDefinition = {
  name: "bridge_repair",
  title: "Bridge repair",
  premise: "Repair the storm-damaged bridge and resupply the clinic.",
  summary:
    "An engineer with a toolbox repairs the bridge with planks only a courier can carry; then medkits cross to the clinic. Needs engineer-1 and courier-1; lookout-1 helps.",
  notes: "",
  agents: [
    { id: "engineer-1", name: "Sam the engineer", role: "engineer", start: "workshop" },
    { id: "courier-1", name: "Ada the courier", role: "courier", start: "depot" },
    { id: "lookout-1", name: "Kim the lookout", role: "lookout", start: "workshop" },
  ],
  objectives: [
    {
      id: "repair",
      description: "Restore the bridge's structural integrity.",
      target: REPAIRS_NEEDED,
      deadlineMs: null,
    },
    { id: "resupply", description: "Deliver two medkits to the clinic.", target: 2, deadlineMs: null },
  ],
  timeLimitMs: 30 * 60_000,
  msPerCell: 1000,
  sightRadius: 0,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 20 },
  tools: [repair],
  build: buildValley,
  react(ctx, happening) {
    if (happening.kind === "dropped")
      reactToDrop(ctx, happening.item.id, ctx.world.placeAt(happening.agent.cell));
  },
  placeFeatures: bridgeFeatures,
  solution: bridgeRepairSolution,
  solvableWith: (agents) => agents.has("engineer-1") && agents.has("courier-1"),
};
