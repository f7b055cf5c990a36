import type { ScenarioDefinition } from "../../engine/scenario.js";
import { buildDam, RELEASED, SPILLWAYS } from "./map.js";
import { creditOrder, damFeatures, PULL_WINDOW_MS, pullLever } from "./rules.js";
import { damReleaseSolution } from "./solution.js";

export const RELEASE_DEADLINE_MS = 46_000;

export const damRelease: ScenarioDefinition = {
  name: "dam_release",
  title: "Dam release",
  premise:
    "Open three of the dam's five spillways, the ones the control room's gauges call for and in their order, before the flood crest arrives.",
  summary:
    "Only the supervisor reads the gauges, and works out from them, by the dam's rule, the release order (three of five spillways); each spillway opens only when the north and south operators, on opposite banks of an uncrossable river, pull its two levers within two seconds of each other. A lever left alone springs back, and a spillway pulled out of order trips the alarm. Needs all three, and timing agreed by message.",
  notes: [
    `A river runs between the north and south banks; nobody can cross it. Each spillway (${SPILLWAYS.join(", ")}) has a north lever (north_lever_K) and a south lever (south_lever_K).`,
    `A pulled lever is held for ${PULL_WINDOW_MS / 1000} s; the spillway opens when the other bank's lever is pulled within that time. A lever nobody joins in time springs back and trips the alarm, and the release fails for good. The control room has a gauge for the water behind each spillway, different every run; the dam's rule is to open every spillway whose gauge reads above the red line (${RELEASED} of them), the highest first. Pulling a lever of any spillway that is not next trips the alarm too.`,
    'Operators agree on timing by message: say "ready for spillway K" when standing at your lever for spillway K, and pull as soon as the other operator is ready for the same one.',
    `All ${RELEASED} must be open by t=${RELEASE_DEADLINE_MS / 1000}s.`,
  ].join(" "),
  roleNotes: {
    supervisor:
      'You are the supervisor, in the control room on the north bank: only you can read the gauges. You cannot pull levers. Work out the order and tell it to both operators in a message of its own, like "Release order: 4, 1, 3."',
    north_operator:
      'You are the north operator: you pull the north levers. You cannot see the gauges; the supervisor tells you the order, like "Release order: 4, 1, 3."',
    south_operator:
      'You are the south operator: you pull the south levers. You cannot see the gauges; the supervisor tells you the order, like "Release order: 4, 1, 3."',
  },
  agents: [
    { id: "supervisor-1", name: "Una the supervisor", role: "supervisor", start: "control_room" },
    { id: "operator-n", name: "Vik the north operator", role: "north_operator", start: "north_hut" },
    { id: "operator-s", name: "Wen the south operator", role: "south_operator", start: "south_hut" },
  ],
  objectives: [
    {
      id: "release",
      description: `Open the ${RELEASED} spillways the gauges call for, in their order.`,
      target: RELEASED,
      deadlineMs: RELEASE_DEADLINE_MS,
    },
  ],
  timeLimitMs: RELEASE_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 0,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 2 },
  // what the gauges call for told to two operators, two pulls in order for each of three spillways, three opened.
  steps: 11,
  tools: [pullLever],
  build: buildDam,
  react(ctx, happening) {
    if (happening.kind !== "messaged") return;
    if (creditOrder(ctx.world, happening.agent, happening.to, happening.text))
      ctx.credit(happening.agent, "told an operator what the gauges call for");
  },
  placeFeatures: damFeatures,
  solution: damReleaseSolution,
  solvableWith: (agents) => agents.size === 3,
};
