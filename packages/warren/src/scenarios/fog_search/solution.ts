import { parseCell } from "../../engine/grid.js";
import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, carrying, lyingHere, NOOP, sleep } from "../observing.js";
import { SIDE } from "./map.js";

/** The cells a whole message names, as the spotter's briefing says to give them: "Sheep at moor:3,7 and moor:2,9." */
function cellsIn(text: string): string[] {
  const m = /^sheep at (moor:\d+,\d+(?: and moor:\d+,\d+)*)\.?$/i.exec(text.trim());
  return m ? m[1]!.split(" and ") : [];
}

/** The cells of the sheep a cairn's bearings ("3 north and 2 west; 4 east") point to. */
function cellsFrom(bearings: string, cairn: { x: number; y: number }): string[] {
  return bearings.split("; ").flatMap((sighting) => {
    let x = cairn.x;
    let y = cairn.y;
    for (const [, n, way] of sighting.matchAll(/(\d+) (north|south|east|west)/g)) {
      const d = Number(n);
      if (way === "north") y -= d;
      if (way === "south") y += d;
      if (way === "west") x -= d;
      if (way === "east") x += d;
    }
    return x === cairn.x && y === cairn.y ? [] : [`moor:${x},${y}`];
  });
}

/**
 * The spotter: climb the cairns in turn (south-west, north-west, north-east, south-east) and,
 * from each, work out the cells of the sheep it sees and tell each shepherd those on its half
 * (west: shepherd-1, east: shepherd-2) that were not told before.
 */
function spotter(): SolutionRunner {
  const told = new Set<string>();
  const visited = new Set<string>();
  const route = ["sw_cairn", "nw_cairn", "ne_cairn", "se_cairn"];
  return {
    decide(o: Observation): Decision {
      if (bodyBusy(o)) return sleep(2000);
      if (o.you.place) visited.add(o.you.place);
      const bearings = o.place.features.over_the_fog;
      const seen = typeof bearings === "string" ? cellsFrom(bearings, parseCell(o.place.cell)!) : [];
      const fresh = seen.filter((c) => !told.has(c));
      for (const to of ["shepherd-1", "shepherd-2"]) {
        const west = to === "shepherd-1";
        const theirs = fresh.filter((c) => parseCell(c)!.x < SIDE / 2 === west);
        if (theirs.length === 0) continue;
        for (const c of theirs) told.add(c);
        return act("message", { to, text: `Sheep at ${theirs.join(" and ")}.` });
      }
      const next = route.find((c) => !visited.has(c));
      return next ? act("move_to", { dest: next }) : NOOP;
    },
  };
}

/** A shepherd: fetch the sheep it is told about, nearest first, one at a time, to the pen. */
function shepherd(): SolutionRunner {
  const unvisited: string[] = [];
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages)
        for (const c of cellsIn(m.text)) if (!unvisited.includes(c)) unvisited.push(c);
      if (bodyBusy(o)) return sleep(2000);
      const held = carrying(o, "sheep")[0];
      if (held) return o.you.place === "pen" ? act("drop", { item: held }) : act("move_to", { dest: "pen" });
      const here = lyingHere(o, "sheep")[0];
      if (here) return act("take", { item: here });
      const at = unvisited.indexOf(o.you.cell);
      if (at >= 0) unvisited.splice(at, 1);
      if (unvisited.length === 0)
        return o.you.place === "pen" ? sleep(2000) : act("move_to", { dest: "pen" });
      const me = parseCell(o.you.cell)!;
      const nearest = [...unvisited].sort((a, b) => steps(me, a) - steps(me, b))[0]!;
      return act("move_to", { dest: nearest });
    },
  };
}

function steps(from: { x: number; y: number }, to: string): number {
  const c = parseCell(to)!;
  return Math.abs(c.x - from.x) + Math.abs(c.y - from.y);
}

export function fogSearchSolution(agentId: string): SolutionRunner {
  if (agentId === "spotter-1") return spotter();
  if (agentId === "shepherd-1" || agentId === "shepherd-2") return shepherd();
  throw new Error(`fog_search has no agent ${agentId}`);
}
