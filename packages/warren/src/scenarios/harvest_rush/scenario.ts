import type { ScenarioDefinition } from "../../engine/scenario.js";
import { creditFirstPickUp } from "../first-steps.js";
import { buildFarm, CRATES, CRATES_PER_FIELD } from "./map.js";
import { farmFeatures, reactToDrop } from "./rules.js";
import { harvestRushSolution } from "./solution.js";

export const FIRST_CRATE_DEADLINE_MS = 20_000;
export const HARVEST_DEADLINE_MS = 36_000;

export const harvestRush: ScenarioDefinition = {
  name: "harvest_rush",
  title: "Harvest rush",
  premise: "Bring the harvest to market before the buyers leave.",
  summary: `Three of four fields hold ${CRATES_PER_FIELD} crates each; a rota at the market gives each farmer a field, and each carries two crates at a time. The deadlines leave no time for one farmer to pick another's field, and a crate put down anywhere but the market bruises. Needs all three.`,
  notes: [
    `Three of the four fields hold ${CRATES_PER_FIELD} crates each; which ones changes every run. The rota posted at the market says which farmer picks which field: keep to it, there is no time to pick a second field.`,
    "A farmer carries at most two crates. Crates put down at the market are sold at once; a crate put down anywhere else bruises and can never be sold, so the harvest is lost.",
    `Sell a first crate by t=${FIRST_CRATE_DEADLINE_MS / 1000}s and all ${CRATES} by t=${HARVEST_DEADLINE_MS / 1000}s, when the buyers leave. Every field is in sight from the market.`,
  ].join(" "),
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
  timeLimitMs: HARVEST_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 6,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 2 },
  // nine crates picked up, a first crate and nine sold.
  steps: 19,
  tools: [],
  build: buildFarm,
  react(ctx, happening) {
    creditFirstPickUp(ctx, happening, ["crate"]);
    if (happening.kind === "dropped") reactToDrop(ctx, happening.agent, happening.item);
  },
  placeFeatures: farmFeatures,
  solution: harvestRushSolution,
  solvableWith: (agents) => agents.size === 3,
};
