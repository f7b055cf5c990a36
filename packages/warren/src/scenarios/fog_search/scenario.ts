import type { ScenarioDefinition } from "../../engine/scenario.js";
import { creditFirstArrival, creditFirstPickUp } from "../first-steps.js";
import { buildMoor, CAIRNS, SHEEP } from "./map.js";
import { cairnFeatures, creditSightings, reactToDrop } from "./rules.js";
import { fogSearchSolution } from "./solution.js";

export const GATHER_DEADLINE_MS = 165_000;

export const fogSearch: ScenarioDefinition = {
  name: "fog_search",
  title: "Fog search",
  premise: "Bring the six stray sheep into the pen before night falls on the foggy moor.",
  summary:
    "Six sheep stray on a 16×16 moor in fog. Everyone sees only their own cell and the next; the shepherds alone can carry a sheep (one at a time); the spotter cannot carry, but from the top of a cairn sees five cells around, as bearings from the cairn, and must work out each sheep's cell and call it to the right shepherd. A sheep put down outside the pen bolts. Needs all three.",
  notes: [
    "Fog covers the moor (cells moor:0,0 to moor:15,15); the pen is at moor:8,15 and four cairns rise above the fog at moor:4,4, moor:11,4, moor:4,11 and moor:11,11. From the top of a cairn the spotter sees over the fog five cells every way, so from the four together the whole moor.",
    "Six sheep stray on open ground, three on the west half (x below 8) and three on the east; where changes every run. A sheep put down anywhere but the pen bolts into the fog and is lost for good.",
    `All ${SHEEP} must be in the pen by t=${GATHER_DEADLINE_MS / 1000}s. Name cells as moor:X,Y; you can walk to a cell as to a place.`,
  ].join(" "),
  roleNotes: {
    spotter:
      'You are the spotter: you cannot carry sheep, and in the fog you see only your own cell and the next. From the top of a cairn you see each sheep within five cells, as so many cells north or south and east or west of the cairn (north is toward y=0, west toward x=0). Climb the cairns, work out each sheep\'s cell and tell the shepherd whose half it is on (shepherd-1 takes the west half, shepherd-2 the east) in a message of its own, like "Sheep at moor:3,7 and moor:2,9."',
    shepherd:
      'You are a shepherd: in the fog you see only your own cell and the next ones, and you carry one sheep at a time. shepherd-1 takes the west half, shepherd-2 the east; the spotter tells you where your sheep are, like "Sheep at moor:3,7 and moor:2,9."',
  },
  agents: [
    { id: "spotter-1", name: "Nell the spotter", role: "spotter", start: "pen" },
    { id: "shepherd-1", name: "Owen the shepherd", role: "shepherd", start: "pen" },
    { id: "shepherd-2", name: "Pia the shepherd", role: "shepherd", start: "pen" },
  ],
  objectives: [
    {
      id: "gather",
      description: `Bring all ${SHEEP} sheep into the pen.`,
      target: SHEEP,
      deadlineMs: GATHER_DEADLINE_MS,
    },
  ],
  timeLimitMs: GATHER_DEADLINE_MS + 1,
  msPerCell: 1000,
  sightRadius: 1,
  budgets: { max_sight: 40, max_messages: 12, max_inventory: 1 },
  // four cairns climbed, six sheep sighted and told, six picked up, six penned.
  steps: 22,
  tools: [],
  build: buildMoor,
  react(ctx, happening) {
    creditFirstPickUp(ctx, happening, ["sheep"]);
    creditFirstArrival(
      ctx,
      happening,
      "spotter",
      CAIRNS.map(([id]) => id),
      (cairn) => `climbed ${cairn}`,
    );
    if (happening.kind === "dropped") reactToDrop(ctx, happening.agent, happening.item);
    if (happening.kind === "messaged") creditSightings(ctx, happening.agent, happening.text);
  },
  placeFeatures: cairnFeatures,
  solution: fogSearchSolution,
  solvableWith: (agents) => agents.size === 3,
};
