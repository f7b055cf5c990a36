import type { ScenarioDefinition } from "../../engine/scenario.js";
import { creditFirstPickUp } from "../first-steps.js";
import { buildValley } from "./map.js";
import { bridgeFeatures, REPAIRS_NEEDED, reactToDrop, reactToMessage, repair } from "./rules.js";
import { bridgeRepairSolution } from "./solution.js";

export const RESUPPLY_DEADLINE_MS = 55_000;

export const bridgeRepair: ScenarioDefinition = {
  name: "bridge_repair",
  title: "Bridge repair",
  premise: "Repair the storm-damaged bridge and resupply the clinic.",
  summary:
    "The lookout works out from its storm log which two of the four timber stacks kept their planks dry and tells the courier, who alone can carry planks and medkits; the engineer, who alone holds the toolbox, repairs the span; then the medkits cross to the clinic. A soaked plank splits, and the river takes what is dropped carelessly. Needs all three.",
  notes: [
    "A river cuts the valley in two; the only crossing is the bridge, whose span is broken and needs two sections repaired, each with one plank.",
    "Each of the four timber stacks (sawmill, woodpile, barn, boatshed) holds a plank, but the storm soaked two of them; which two changes every run. A soaked plank looks like a sound one, and a section repaired with it gives way, making the repair impossible. There are no spare planks.",
    "At the broken bridge the river takes whatever nobody holds: a toolbox put down there falls between the boards, and a plank put down there is swept away unless the engineer stands there to take it in hand. Either loss makes the repair impossible.",
    `Both medkits must be delivered to the clinic by t=${RESUPPLY_DEADLINE_MS / 1000}s, so the span must stand well before that.`,
  ].join(" "),
  roleNotes: {
    engineer:
      "You are the engineer: only you may carry the toolbox (it is in the workshop) and only you can repair. Repair at the bridge with the toolbox in hand, once per plank lying there. You see only the place where you stand.",
    courier:
      'You are the courier: only you can carry planks and the sealed medkits (two, at the depot). You see only the place where you stand, and a soaked plank looks like a sound one: the lookout tells you which two stacks hold the sound planks, in a message like "Sound planks: sawmill, barn." Fetch only those. Put planks down at the bridge only while the engineer is standing there.',
    lookout:
      'You are the lookout: from the watchtower you see the whole west bank, while the others see only where they stand, and your storm log there tells what the night did to each timber stack. Timber the rain or the river reached is soaked and splits under load; timber that stayed dry is sound, and two stacks stayed dry. You cannot carry planks or medkits. Work out the two stacks with sound planks and tell the courier in a message of its own, like "Sound planks: sawmill, barn."',
  },
  agents: [
    { id: "engineer-1", name: "Sam the engineer", role: "engineer", start: "workshop" },
    { id: "courier-1", name: "Ada the courier", role: "courier", start: "depot" },
    { id: "lookout-1", name: "Kim the lookout", role: "lookout", start: "tower" },
  ],
  objectives: [
    {
      id: "repair",
      description: "Restore the bridge's structural integrity.",
      target: REPAIRS_NEEDED,
      // The resupply deadline bounds the repair too; the notes tell when it must stand.
      deadlineMs: null,
    },
    {
      id: "resupply",
      description: "Deliver two medkits to the clinic.",
      target: 2,
      deadlineMs: RESUPPLY_DEADLINE_MS,
    },
  ],
  timeLimitMs: RESUPPLY_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 0,
  sightByRole: { lookout: 12 },
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 20 },
  // a toolbox and two medkits picked up, two sound stacks told, two sound planks brought, two sections repaired, two medkits delivered.
  steps: 11,
  tools: [repair],
  build: buildValley,
  react(ctx, happening) {
    // A plank picked up is no step until it is known sound: bringing a sound one to the bridge is.
    creditFirstPickUp(ctx, happening, ["toolbox", "medkit"]);
    if (happening.kind === "dropped")
      reactToDrop(ctx, happening.agent, happening.item, ctx.world.placeAt(happening.agent.cell));
    if (happening.kind === "messaged") reactToMessage(ctx, happening.agent, happening.text);
  },
  placeFeatures: bridgeFeatures,
  solution: bridgeRepairSolution,
  solvableWith: (agents) => agents.size === 3,
};
