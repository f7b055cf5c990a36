import type { ScenarioDefinition } from "../../engine/scenario.js";
import { creditFirstPickUp } from "../first-steps.js";
import { buildTown, HOUSES, RESIDENTS } from "./map.js";
import { creditAddresses, reactToDrop, townFeatures } from "./rules.js";
import { parcelDispatchSolution } from "./solution.js";

export const DELIVER_DEADLINE_MS = 50_000;

export const parcelDispatch: ScenarioDefinition = {
  name: "parcel_dispatch",
  title: "Parcel dispatch",
  premise: "Deliver every parcel in the post office to its own address before the evening round ends.",
  summary:
    "Eight parcels, eight houses on two sides of town. Only the dispatcher reads the ledger of whom each parcel is for, and only the dispatcher knows who lives where; only the couriers carry parcels, two at a time. A parcel left at the wrong door is lost. The dispatcher must find each parcel's house, split the round and tell each courier which parcel goes where; one courier alone is too slow. Needs all three.",
  notes: [
    `Eight parcels wait at the post office, one for each of the households in the houses ${HOUSES.map(([id]) => id).join(", ")} (a to d west of the post office, e to h east); which parcel goes where changes every run.`,
    "A parcel put down at a house is delivered there: at any door but its own address it is lost and the round cannot be completed. Put down at the post office it waits again.",
    `Every parcel must be delivered by t=${DELIVER_DEADLINE_MS / 1000}s; one courier alone cannot make it.`,
  ].join(" "),
  roleNotes: {
    dispatcher: `You are the dispatcher: you stay at the post office and only you can read the ledger, which says whom each parcel is for; you cannot carry parcels. You have sorted this town's post for years and know who lives where: ${Object.entries(
      RESIDENTS,
    )
      .map(([house, family]) => `${family} in ${house}`)
      .join(
        ", ",
      )}. Give each courier a round in a message of its own, naming each parcel's house, like "Your round: parcel-3 to house_b, parcel-5 to house_c."`,
    courier:
      'You are a courier: you carry at most two parcels and see only where you stand. Parcels do not show their address; the dispatcher gives you your round, like "Your round: parcel-3 to house_b, parcel-5 to house_c." Deliver only the parcels you are given.',
  },
  agents: [
    { id: "dispatcher-1", name: "Mo the dispatcher", role: "dispatcher", start: "post_office" },
    { id: "courier-1", name: "Lia the courier", role: "courier", start: "post_office" },
    { id: "courier-2", name: "Ray the courier", role: "courier", start: "post_office" },
  ],
  objectives: [
    {
      id: "deliver",
      description: "Deliver all eight parcels, each to its own address.",
      target: HOUSES.length,
      deadlineMs: DELIVER_DEADLINE_MS,
    },
  ],
  timeLimitMs: DELIVER_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 0,
  sightByRole: { dispatcher: 8 },
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 2 },
  // eight addresses told, eight parcels picked up, eight delivered.
  steps: 24,
  tools: [],
  build: buildTown,
  react(ctx, happening) {
    creditFirstPickUp(ctx, happening, ["parcel"]);
    if (happening.kind === "dropped") reactToDrop(ctx, happening.agent, happening.item);
    if (happening.kind === "messaged") creditAddresses(ctx, happening.agent, happening.text);
  },
  placeFeatures: townFeatures,
  solution: parcelDispatchSolution,
  solvableWith: (agents) => agents.size === 3,
};
