import type { ScenarioDefinition } from "../../engine/scenario.js";
import { creditFirstArrival } from "../first-steps.js";
import { buildStation } from "./map.js";
import { creditRelay, enterCode, MAX_WRONG_CODES, stationFeatures } from "./rules.js";
import { signalRelaySolution } from "./solution.js";

export const OPEN_GATE_DEADLINE_MS = 15_000;

export const signalRelay: ScenarioDefinition = {
  name: "signal_relay",
  title: "Signal relay",
  premise: "Open the outer gate. Its code is in a code book in a vault whose keeper cannot leave.",
  summary:
    "The runner reaches the gate and reads its plate; the keeper, sealed in the vault with the code book, needs the plate to find the code. Only messages both ways get it across, and the keypad locks after three wrong codes. Needs both agents.",
  notes: [
    "The outer gate carries a painted plate (a word) and a four-digit keypad. The vault's code book lists a code for each of thirty plates; only the code for this gate's plate opens it, and plates and codes change every run.",
    `The keypad locks for good after ${MAX_WRONG_CODES} wrong codes. The gate must be open by t=${OPEN_GATE_DEADLINE_MS / 1000}s.`,
  ].join(" "),
  roleNotes: {
    keeper:
      "You are the keeper, sealed in the vault: you cannot leave, but you can read the code book on the wall. You cannot see the gate.",
    runner:
      "You are the runner: you can walk to the gate and read its plate and type on its keypad, but you never see the code book.",
  },
  agents: [
    { id: "keeper-1", name: "Iris the keeper", role: "keeper", start: "vault" },
    { id: "runner-1", name: "Tom the runner", role: "runner", start: "camp" },
  ],
  objectives: [
    {
      id: "open_gate",
      description: "Open the outer gate with the code for its plate.",
      target: 1,
      deadlineMs: OPEN_GATE_DEADLINE_MS,
    },
  ],
  timeLimitMs: OPEN_GATE_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 1,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 20 },
  // the gate reached, the plate told, the code told, the gate opened.
  steps: 4,
  tools: [enterCode],
  build: buildStation,
  placeFeatures: stationFeatures,
  react(ctx, happening) {
    creditFirstArrival(ctx, happening, "runner", ["gate"], () => "reached the gate and read its plate");
    if (happening.kind !== "messaged") return;
    const what = creditRelay(ctx.world, happening.text);
    if (what) ctx.credit(happening.agent, what);
  },
  solution: signalRelaySolution,
  solvableWith: (agents) => agents.has("keeper-1") && agents.has("runner-1"),
};
