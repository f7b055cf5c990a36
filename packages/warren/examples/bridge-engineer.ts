/**
 * A small remote agent: plays engineer-1 in bridge_repair beside the scenario's solution NPCs.
 *
 *   node --import tsx examples/bridge-engineer.ts http://127.0.0.1:8080
 *
 * It creates the run, then fetches the toolbox, waits at the bridge for the courier's planks and
 * repairs until the span stands. Prints the run's terminal status; exits 0 if it completed.
 */
import { pathToFileURL } from "node:url";
import { type CommandPayload, type Observation, playAgent, WarrenClient } from "../src/client/index.js";

const WAIT_MS = 5000;

function kinds(items: { kind: string; id: string }[], kind: string): string[] {
  return items.filter((i) => i.kind === kind).map((i) => i.id);
}

/** One decision from one observation: the engineer's whole plan. */
export function engineerDecides(o: Observation): CommandPayload {
  if (o.objectives.find((g) => g.id === "repair")?.status === "completed") return { noop: true };
  if (o.busy.some((b) => b.lane === "body")) return { sleep_ms: WAIT_MS };
  if (kinds(o.you.inventory, "toolbox").length === 0) {
    const toolbox = kinds(o.place.items, "toolbox")[0];
    if (toolbox) return { action: "take", args: { item: toolbox } };
    if (o.you.place !== "workshop") return { action: "move_to", args: { dest: "workshop" } };
    return { sleep_ms: WAIT_MS };
  }
  if (o.you.place !== "bridge") return { action: "move_to", args: { dest: "bridge" } };
  if (kinds(o.place.items, "plank").length > 0) return { action: "repair", args: {} };
  return { sleep_ms: WAIT_MS };
}

/** Creates a bridge_repair run with engineer-1 remote and plays it; resolves with the terminal status. */
export async function playBridgeEngineer(
  baseUrl: string,
  seed = 3,
): Promise<{ runId: string; status: string }> {
  const warren = new WarrenClient(baseUrl);
  const run = await warren.createRun("bridge_repair", {
    seed,
    controlled_agents: ["engineer-1"],
    npc_policy: "solution",
    pace: null,
  });
  const session = warren.agent(run.run_id, "engineer-1", { holder: "bridge-engineer.ts" });
  const status = await playAgent(session, ({ envelope }) => engineerDecides(envelope.observation));
  return { runId: run.run_id, status };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runId, status } = await playBridgeEngineer(process.argv[2] ?? "http://127.0.0.1:8080");
  console.log(`${runId} ${status}`);
  process.exitCode = status === "completed" ? 0 : 1;
}
