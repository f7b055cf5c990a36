import type { ToolDefinition } from "../../engine/tool.js";
import type { Place, World } from "../../engine/world.js";
import { sameCell } from "../../engine/world.js";

/** The keypad at the gate. Only the code posted in the vault opens it. */
export const enterCode: ToolDefinition = {
  spec: {
    name: "enter_code",
    description: "Type a four-digit code on the gate's keypad.",
    lane: "body",
    durative: false,
    input_schema: {
      type: "object",
      properties: { code: { type: "string", pattern: "^[0-9]{4}$" } },
      required: ["code"],
      additionalProperties: false,
    },
  },
  unavailable(ctx, agent) {
    const gate = ctx.world.places.get("gate")!;
    if (!sameCell(agent.cell, gate.cell)) return "the keypad is at the gate";
    return ctx.world.flags.get("gate_open") === true ? "the gate is already open" : "";
  },
  offer() {
    return { params: {}, suggestions: [] };
  },
  begin(ctx, agent, args) {
    const gate = ctx.world.places.get("gate")!;
    if (!sameCell(agent.cell, gate.cell)) {
      return {
        refused: `The keypad is at the gate (station:${gate.cell.x},${gate.cell.y}); go there first.`,
      };
    }
    if (ctx.world.flags.get("gate_open") === true) return { refused: "The gate is already open." };
    const code = String(args.code);
    if (code !== ctx.world.flags.get("code")) {
      ctx.emit("wrong_code", { agent: agent.id, code });
      return {
        refused: `The gate stays shut: ${code} is not the code. The code is posted in the vault; whoever is there must tell you.`,
      };
    }
    ctx.world.flags.set("gate_open", true);
    ctx.emit("gate_opened", { agent: agent.id });
    ctx.progress("open_gate", 1);
    return { durationMs: 1000 };
  },
};

export function stationFeatures(world: World, place: Place): Record<string, unknown> {
  if (place.id === "vault") return { note: `The gate code is ${String(world.flags.get("code"))}.` };
  if (place.id === "gate") return { gate: world.flags.get("gate_open") === true ? "open" : "shut" };
  return {};
}
