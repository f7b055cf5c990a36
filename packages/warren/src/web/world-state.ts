import type { ScenarioDefinition } from "../engine/scenario.js";
import type { World } from "../engine/world.js";
import { sceneLocation, spectatorFeatures } from "./scene.js";
import type { WorldChange, WorldState } from "./viewer-documents.js";

/** Worlds with more items and places than this are not followed event by event (too costly). */
export const MAX_FOLLOWED_THINGS = 200;

export function worldState(world: World, scenario: ScenarioDefinition): WorldState {
  const items: WorldState["items"] = {};
  for (const item of world.items.values()) items[item.id] = sceneLocation(item.location);
  const features: WorldState["features"] = {};
  for (const place of world.places.values()) features[place.id] = spectatorFeatures(scenario, world, place);
  return { items, features };
}

/**
 * Follows a world event by event: `after(cursor)` compares it with what it was and returns what
 * changed, if anything. Comparing is by value, so a small world costs little per event.
 */
export class WorldFollower {
  private itemsWere = new Map<string, string>();
  private featuresWere = new Map<string, string>();

  constructor(
    private readonly world: World,
    private readonly scenario: ScenarioDefinition,
  ) {
    this.diff(0);
  }

  /** Whether this world is small enough to follow event by event. */
  static fits(world: World): boolean {
    return world.items.size + world.places.size <= MAX_FOLLOWED_THINGS;
  }

  after(cursor: number): WorldChange | undefined {
    return this.diff(cursor);
  }

  private diff(cursor: number): WorldChange | undefined {
    const state = worldState(this.world, this.scenario);
    const items = changed(this.itemsWere, state.items);
    const features = changed(this.featuresWere, state.features);
    if (cursor === 0 || (!items && !features)) return undefined;
    return { cursor, ...(items ? { items } : {}), ...(features ? { features } : {}) };
  }
}

/** The entries of `now` that differ from what `were` remembers (which it then remembers). */
function changed<T>(were: Map<string, string>, now: Record<string, T>): Record<string, T> | undefined {
  let out: Record<string, T> | undefined;
  for (const [id, value] of Object.entries(now)) {
    const text = JSON.stringify(value);
    if (were.get(id) === text) continue;
    if (were.has(id)) (out ??= {})[id] = value;
    were.set(id, text);
  }
  return out;
}
