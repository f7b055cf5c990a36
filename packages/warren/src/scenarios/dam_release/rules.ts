import type { ToolDefinition } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { AgentState, Place, World } from "../../engine/world.js";
import { BANK_OF_ROLE, gaugeReadings, metres, RED_LINE, releaseOrder, SPILLWAYS } from "./map.js";

/** How close together a spillway's two levers must be pulled for it to open. */
export const PULL_WINDOW_MS = 2000;

/** The lever station an agent stands at: its bank and spillway, if any. */
function stationAt(world: World, agent: AgentState): { bank: string; spillway: number } | undefined {
  const m = /^(north|south)_lever_(\d)$/.exec(world.placeAt(agent.cell)?.id ?? "");
  return m ? { bank: m[1]!, spillway: Number(m[2]) } : undefined;
}

function isOpen(world: World, spillway: number): boolean {
  return releaseOrder(world)
    .slice(0, Number(world.flags.get("opened")))
    .includes(spillway);
}

/**
 * An operator's lever. Pulling it holds it down for PULL_WINDOW_MS (the operator's body is busy,
 * so a second pull cannot restart the window); the spillway opens when the other bank's lever is
 * pulled while this one is held. A lever still alone when its window ends springs back and trips
 * the alarm, and so does a lever of a spillway that is not next in the release order: either ends
 * the release for good. So the two pulls must be agreed, not repeated until they happen to meet.
 */
export const pullLever: ToolDefinition = {
  spec: {
    name: "pull_lever",
    description: `Pull and hold the lever you stand at for ${PULL_WINDOW_MS / 1000} s. The spillway opens when the other bank's lever is pulled within those ${PULL_WINDOW_MS / 1000} s; a lever left alone springs back and trips the alarm, and so does a spillway pulled out of the release order.`,
    lane: "body",
    durative: true,
    input_schema: { type: "object", properties: {}, additionalProperties: false },
  },
  roles: ["north_operator", "south_operator"],
  unavailable(ctx, agent) {
    return leverProblem(ctx.world, agent)?.refused ?? "";
  },
  offer() {
    return { params: {}, suggestions: [{}] };
  },
  begin(ctx, agent) {
    const problem = leverProblem(ctx.world, agent);
    if (problem) return problem;
    const world = ctx.world;
    const { bank, spillway } = stationAt(world, agent)!;
    const opened = Number(world.flags.get("opened"));
    const next = releaseOrder(world)[opened];
    ctx.emit("lever_pulled", { agent: agent.id, bank, spillway });
    if (spillway !== next) {
      ctx.fail("release", `spillway ${spillway} was pulled out of order and the alarm tripped`);
      return { durationMs: PULL_WINDOW_MS + 1 };
    }
    ctx.credit(agent, `pulled the lever of spillway ${spillway}, next in the order`);
    world.flags.set(`pulled_${bank}_${spillway}`, ctx.now);
    const other = world.flags.get(`pulled_${bank === "north" ? "south" : "north"}_${spillway}`);
    if (typeof other === "number" && ctx.now - other <= PULL_WINDOW_MS) {
      world.flags.set("opened", opened + 1);
      ctx.emit("spillway_opened", { spillway });
      ctx.progress("release", 1);
    }
    return {
      // Held one millisecond past the window, so a partner pulling exactly at its end still counts.
      durationMs: PULL_WINDOW_MS + 1,
      finish: () => {
        if (isOpen(world, spillway) || world.objectives.get("release")!.status !== "pending") return null;
        ctx.emit("lever_sprang_back", { agent: agent.id, bank, spillway });
        ctx.fail(
          "release",
          `the ${bank} lever of spillway ${spillway} sprang back unpaired and the alarm tripped`,
        );
        return `The ${bank} lever of spillway ${spillway} sprang back: nobody pulled the other bank's lever in time.`;
      },
    };
  },
};

function leverProblem(world: World, agent: AgentState): { refused: string; hint?: string } | undefined {
  const station = stationAt(world, agent);
  if (!station)
    return { refused: "There is no lever where you stand.", hint: "Levers are at the lever stations." };
  if (station.bank !== BANK_OF_ROLE[agent.role]) return { refused: "That lever is not on your bank." };
  if (isOpen(world, station.spillway)) return { refused: `Spillway ${station.spillway} is already open.` };
  return undefined;
}

/** The gauges are the supervisor's to read; the order they imply is the supervisor's to work out. */
export function damFeatures(world: World, place: Place, viewer: AgentState): Record<string, FeatureValue> {
  if (place.id !== "control_room" || viewer.role !== "supervisor") return {};
  return { gauges: gaugeReadings(world), red_line: metres(RED_LINE) };
}

/**
 * Whether this message is the supervisor first telling a listener what the gauges call for: the
 * order itself, or every reading, from which the dam's rule gives the order.
 */
export function creditOrder(world: World, agent: AgentState, to: AgentState, text: string): boolean {
  if (agent.role !== "supervisor") return false;
  const key = `told_order_${to.id}`;
  if (world.flags.get(key) === true) return false;
  const readings = SPILLWAYS.every((k) => text.includes(metres(Number(world.flags.get(`gauge_${k}`)))));
  if (!readings && !text.includes(releaseOrder(world).join(", "))) return false;
  world.flags.set(key, true);
  return true;
}
