import type { ScenarioDefinition } from "../../engine/scenario.js";
import { buildDam, RELEASED, SPILLWAYS } from "./map.js";
import { creditOrder, damFeatures, PULL_WINDOW_MS, pullLever } from "./rules.js";
import { damReleaseSolution } from "./solution.js";

export const RELEASE_DEADLINE_MS = 46_000;

export const damRelease: ScenarioDefinition = {
  name: "dam_release",
  title: "Dam release",
  premise:
    "Open three of the dam's five spillways, the ones on the control board and in its order, before the flood crest arrives.",
  summary:
    "Only the supervisor reads the release order (three of five spillways); each spillway opens only when the north and south operators, on opposite banks of an uncrossable river, pull its two levers within two seconds of each other. A lever left alone springs back, and a spillway pulled out of order trips the alarm. Needs all three, and timing agreed by message.",
  notes: [
    `A river runs between the north and south banks; nobody can cross it. Each spillway (${SPILLWAYS.join(", ")}) has a north lever (north_lever_K) and a south lever (south_lever_K).`,
    `A pulled lever is held for ${PULL_WINDOW_MS / 1000} s; the spillway opens when the other bank's lever is pulled within that time. A lever nobody joins in time springs back and trips the alarm, and the release fails for good. The control board names ${RELEASED} of the spillways and the order to open them in, different every run; pulling a lever of any spillway that is not next trips the alarm too.`,
    'Operators agree on timing by message: say "ready for spillway K" when standing at your lever for spillway K, and pull as soon as the other operator is ready for the same one.',
    `All ${RELEASED} must be open by t=${RELEASE_DEADLINE_MS / 1000}s.`,
  ].join(" "),
  roleNotes: {
    supervisor:
      'You are the supervisor, in the control room on the north bank: only you can read the release order on the board. You cannot pull levers. Tell both operators the order, like "Release order: 4, 1, 3".',
    north_operator:
      "You are the north operator: you pull the north levers. You cannot see the board; the supervisor tells you the order.",
    south_operator:
      "You are the south operator: you pull the south levers. You cannot see the board; the supervisor tells you the order.",
  },
  agents: [
    { id: "supervisor-1", name: "Una the supervisor", role: "supervisor", start: "control_room" },
    { id: "operator-n", name: "Vik the north operator", role: "north_operator", start: "north_hut" },
    { id: "operator-s", name: "Wen the south operator", role: "south_operator", start: "south_hut" },
  ],
  objectives: [
    {
      id: "release",
      description: `Open the ${RELEASED} spillways the board names, in its order.`,
      target: RELEASED,
      deadlineMs: RELEASE_DEADLINE_MS,
    },
  ],
  timeLimitMs: RELEASE_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 0,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 2 },
  // the order told to two operators, two pulls in order for each of three spillways, three opened.
  steps: 11,
  tools: [pullLever],
  build: buildDam,
  react(ctx, happening) {
    if (happening.kind !== "messaged") return;
    if (creditOrder(ctx.world, happening.agent, happening.to, happening.text))
      ctx.credit(happening.agent, "told the release order");
  },
  placeFeatures: damFeatures,
  solution: damReleaseSolution,
  solvableWith: (agents) => agents.size === 3,
};
