import { CORE_TOOLS } from "../engine/core-tools.js";
import { cellName } from "../engine/grid.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import { Simulation } from "../engine/simulation.js";
import type { AgentSummary } from "../engine/types.js";
import type { AgentState, ItemLocation, Place, World } from "../engine/world.js";
import type { Scene, SceneItemLocation } from "./viewer-documents.js";

export function sceneLocation(location: ItemLocation): SceneItemLocation {
  if (location.at === "cell") return { at: "cell", cell: cellName(location.cell) };
  if (location.at === "agent") return { at: "agent", agent: location.agent };
  return { at: "gone" };
}

/**
 * A place's features as a spectator sees them: what every agent would see, merged, since some
 * features are for one role's eyes only (asked once per role: they differ by role, not by agent).
 */
export function spectatorFeatures(
  scenario: ScenarioDefinition,
  world: World,
  place: Place,
): Record<string, unknown> {
  if (!scenario.placeFeatures) return {};
  const viewerByRole = new Map<string, AgentState>();
  for (const agent of world.agents.values())
    if (!viewerByRole.has(agent.role)) viewerByRole.set(agent.role, agent);
  return Object.assign(
    {},
    ...[...viewerByRole.values()].map((viewer) => scenario.placeFeatures!(world, place, viewer)),
  );
}

export function buildScene(
  runId: string,
  scenario: ScenarioDefinition,
  seed: number,
  agents: readonly AgentSummary[],
): Scene {
  // A fresh, unstarted simulation of the same scenario and seed is the run's world at t=0.
  const world = new Simulation(scenario, seed, () => {}).world;
  const controllers = new Map(agents.map((a) => [a.agent_id, a.controller]));
  return {
    format: "warren-scene/1",
    run_id: runId,
    scenario: scenario.name,
    title: scenario.title,
    premise: scenario.premise,
    seed,
    ms_per_cell: scenario.msPerCell,
    sight_radius: scenario.sightRadius,
    time_limit_ms: scenario.timeLimitMs,
    spaces: [...world.spaces.values()].map((space) => {
      const rows: string[] = [];
      for (let y = 0; y < space.height; y++) {
        let row = "";
        for (let x = 0; x < space.width; x++) row += space.isBlocked(x, y) ? "#" : ".";
        rows.push(row);
      }
      return { id: space.id, width: space.width, height: space.height, rows };
    }),
    places: [...world.places.values()].map((place) => ({
      id: place.id,
      name: place.name,
      cell: cellName(place.cell),
      description: place.description,
      features: spectatorFeatures(scenario, world, place),
    })),
    items: [...world.items.values()].map((item) => ({
      id: item.id,
      name: item.name,
      kind: item.kind,
      location: sceneLocation(item.location),
    })),
    agents: [...world.agents.values()].map((agent) => ({
      id: agent.id,
      name: agent.name,
      role: agent.role,
      cell: cellName(agent.cell),
      controller: controllers.get(agent.id) ?? "none",
    })),
    objectives: world.objectiveViews(),
    tools: Object.fromEntries(
      [...CORE_TOOLS, ...scenario.tools].map((t) => [
        t.spec.name,
        { lane: t.spec.lane, durative: t.spec.durative },
      ]),
    ),
  };
}
