import type { ScenarioDefinition } from "../../engine/scenario.js";
import { buildFarm, CRATES } from "./map.js";
import { sellAtMarket } from "./rules.js";
import { harvestRushSolution } from "./solution.js";

export const FIRST_CRATE_DEADLINE_MS = 30_000;
export const HARVEST_DEADLINE_MS = 44_000;

export const harvestRush: ScenarioDefinition = {
  name: "harvest_rush",
  title: "Harvest rush",
  premise: "Bring the harvest to market before the buyers leave.",
  summary:
    "Six crates lie in two of four fields; each farmer carries two at a time. The first crate and the whole harvest have deadlines: one farmer cannot make them, two can.",
  notes: "Crates put down at the market are sold at once. Buyers leave at the harvest deadline.",
  agents: [
    { id: "farmer-1", name: "Ana the farmer", role: "farmer", start: "market" },
    { id: "farmer-2", name: "Ben the farmer", role: "farmer", start: "market" },
    { id: "farmer-3", name: "Cleo the farmer", role: "farmer", start: "market" },
  ],
  objectives: [
    {
      id: "first_crate",
      description: "Sell a first crate at the market.",
      target: 1,
      deadlineMs: FIRST_CRATE_DEADLINE_MS,
    },
    {
      id: "harvest",
      description: `Sell all ${CRATES} crates at the market.`,
      target: CRATES,
      deadlineMs: HARVEST_DEADLINE_MS,
    },
  ],
  timeLimitMs: 5 * 60_000,
  msPerCell: 1000,
  sightRadius: 6,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 2 },
  tools: [],
  build: buildFarm,
  react(ctx, happening) {
    if (happening.kind === "dropped") sellAtMarket(ctx, happening.agent, happening.item);
  },
  solution: harvestRushSolution,
  solvableWith: (agents) => agents.size >= 2,
};
