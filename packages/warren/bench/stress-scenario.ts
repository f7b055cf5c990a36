import { SeededRandom } from "../src/engine/random.js";
import type { ScenarioDefinition, SolutionRunner } from "../src/engine/scenario.js";
import type { Decision, Observation } from "../src/engine/types.js";

/**
 * A generated stress world: `agents` walkers on a square grid with scattered places and items.
 * Each walker, on every wake, walks to a random place, picks up or puts down an item, sends a
 * message, or sleeps. The single objective is never met, so the run lasts until its time limit.
 */
export function stressScenario(agents: number, timeLimitMs: number): ScenarioDefinition {
  const side = Math.max(16, Math.ceil(Math.sqrt(agents) * 4));
  const placeCount = Math.max(8, Math.ceil(agents / 10));
  const ids = Array.from({ length: agents }, (_, i) => `walker-${String(i).padStart(4, "0")}`);
  const placeIds = Array.from({ length: placeCount }, (_, i) => `spot-${i}`);
  return {
    name: `stress_${agents}`,
    title: `Stress world (${agents} agents)`,
    premise: "Wander, carry things about, chat.",
    summary: "A generated world for benchmarks.",
    notes: "",
    agents: ids.map((id, i) => ({ id, name: id, role: "walker", start: placeIds[i % placeCount]! })),
    objectives: [{ id: "endure", description: "Keep going.", target: 1, deadlineMs: null }],
    steps: 1,
    timeLimitMs,
    msPerCell: 250,
    sightRadius: 1,
    budgets: { max_sight: 40, max_messages: 1_000_000, max_inventory: 3 },
    tools: [],
    build(world, rng) {
      const space = world.addSpace("plain", side, side);
      for (let i = 0; i < side * 2; i++) space.setBlocked(rng.int(side), rng.int(side), true);
      placeIds.forEach((id, i) => {
        let x = rng.int(side);
        let y = rng.int(side);
        while (space.isBlocked(x, y)) [x, y] = [rng.int(side), rng.int(side)];
        world.addPlace({ id, name: id, description: "", cell: { space: "plain", x, y } });
        world.addItem(
          { id: `stone-${i}`, name: "stone", kind: "stone", props: {} },
          { at: "cell", cell: { space: "plain", x, y } },
        );
      });
    },
    solution(agentId) {
      return walker(agentId, ids, placeIds);
    },
    solvableWith: () => false,
  };
}

function walker(agentId: string, agents: string[], places: string[]): SolutionRunner {
  const rng = new SeededRandom(Number(agentId.slice(-4)) + 1);
  return {
    decide(o: Observation): Decision {
      if (o.busy.some((b) => b.lane === "body")) return { kind: "sleep", sleep_ms: 2000 };
      const roll = rng.int(10);
      if (roll < 5) {
        const dest = places[rng.int(places.length)]!;
        if (dest !== o.you.place) return { kind: "action", action: "move_to", args: { dest } };
      }
      if (roll < 7 && o.place.items.length > 0 && o.you.budgets_left.inventory > 0) {
        return { kind: "action", action: "take", args: { item: o.place.items[0]!.id } };
      }
      if (roll < 8 && o.you.inventory.length > 0) {
        return { kind: "action", action: "drop", args: { item: o.you.inventory[0]!.id } };
      }
      if (roll < 9) {
        const to = agents[rng.int(agents.length)]!;
        if (to !== agentId) return { kind: "action", action: "message", args: { to, text: "hello" } };
      }
      return { kind: "sleep", sleep_ms: 500 + rng.int(3000) };
    },
  };
}
