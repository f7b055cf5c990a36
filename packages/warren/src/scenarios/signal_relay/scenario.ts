import type { ScenarioDefinition } from "../../engine/scenario.js";
import { buildStation } from "./map.js";
import { enterCode, stationFeatures } from "./rules.js";
import { signalRelaySolution } from "./solution.js";

export const signalRelay: ScenarioDefinition = {
  name: "signal_relay",
  title: "Signal relay",
  premise: "Open the outer gate. Its code is posted in a vault whose keeper cannot leave.",
  summary:
    "The keeper is sealed in the vault with the gate's code; the runner can reach the gate but never sees the code. Only a message gets it across. Needs both agents.",
  notes: "The code changes with every run; guessing four digits is hopeless within the time limit.",
  agents: [
    { id: "keeper-1", name: "Iris the keeper", role: "keeper", start: "vault" },
    { id: "runner-1", name: "Tom the runner", role: "runner", start: "camp" },
  ],
  objectives: [
    {
      id: "open_gate",
      description: "Open the outer gate with the vault's code.",
      target: 1,
      deadlineMs: null,
    },
  ],
  timeLimitMs: 10 * 60_000,
  msPerCell: 1000,
  sightRadius: 1,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 20 },
  tools: [enterCode],
  build: buildStation,
  placeFeatures: stationFeatures,
  solution: signalRelaySolution,
  solvableWith: (agents) => agents.has("keeper-1") && agents.has("runner-1"),
};
