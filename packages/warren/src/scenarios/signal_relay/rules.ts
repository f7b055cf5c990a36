import type { ToolDefinition } from "../../engine/tool.js";
import type { FeatureValue } from "../../engine/types.js";
import type { Place, World } from "../../engine/world.js";
import { sameCell } from "../../engine/world.js";

/** Wrong codes the keypad takes before it locks for good. */
export const MAX_WRONG_CODES = 3;

/** The keypad at the gate. Only the code the vault's book gives for the gate's plate opens it. */
export const enterCode: ToolDefinition = {
  spec: {
    name: "enter_code",
    description: `Type a four-digit code on the gate's keypad. After ${MAX_WRONG_CODES} wrong codes it locks for good.`,
    lane: "body",
    durative: false,
    input_schema: {
      type: "object",
      properties: { code: { type: "string", pattern: "^[0-9]{4}$" } },
      required: ["code"],
      additionalProperties: false,
    },
  },
  roles: ["runner"],
  unavailable(ctx, agent) {
    const gate = ctx.world.places.get("gate")!;
    if (!sameCell(agent.cell, gate.cell)) return "the keypad is at the gate";
    if (ctx.world.flags.get("gate_open") === true) return "the gate is already open";
    return locked(ctx.world) ? "the keypad is locked" : "";
  },
  offer() {
    return { params: {}, suggestions: [] };
  },
  begin(ctx, agent, args) {
    const world = ctx.world;
    const gate = world.places.get("gate")!;
    if (!sameCell(agent.cell, gate.cell)) {
      return {
        refused: `The keypad is at the gate (station:${gate.cell.x},${gate.cell.y}); go there first.`,
      };
    }
    if (world.flags.get("gate_open") === true) return { refused: "The gate is already open." };
    if (locked(world)) return { refused: "The keypad is locked: it took too many wrong codes." };
    const code = String(args.code);
    if (code !== world.flags.get("code")) {
      const wrong = Number(world.flags.get("wrong_codes")) + 1;
      world.flags.set("wrong_codes", wrong);
      ctx.emit("wrong_code", { agent: agent.id, code, wrong });
      if (wrong >= MAX_WRONG_CODES) {
        ctx.fail("open_gate", `the keypad locked after ${MAX_WRONG_CODES} wrong codes`);
        return { refused: `The gate stays shut: ${code} is not the code, and the keypad has locked.` };
      }
      return {
        refused: `The gate stays shut: ${code} is not the code.`,
        hint: "The vault's code book gives the code for this gate's plate; whoever is there must tell you.",
      };
    }
    world.flags.set("gate_open", true);
    ctx.emit("gate_opened", { agent: agent.id });
    ctx.progress("open_gate", 1);
    return { durationMs: 1000 };
  },
};

function locked(world: World): boolean {
  return Number(world.flags.get("wrong_codes")) >= MAX_WRONG_CODES;
}

export function stationFeatures(world: World, place: Place): Record<string, FeatureValue> {
  if (place.id === "vault") return { code_book: String(world.flags.get("code_book")) };
  if (place.id === "gate") {
    return {
      gate: world.flags.get("gate_open") === true ? "open" : locked(world) ? "shut, keypad locked" : "shut",
      plate: String(world.flags.get("plate")),
    };
  }
  return {};
}

/** A message that carries the gate's plate (runner) or its code (keeper) credits its sender once. */
export function creditRelay(world: World, text: string): string | null {
  for (const [flag, what] of [
    ["plate", "told the gate's plate"],
    ["code", "told the gate's code"],
  ] as const) {
    const value = String(world.flags.get(flag));
    const key = `told_${flag}`;
    if (world.flags.get(key) !== true && new RegExp(`\\b${value}\\b`, "i").test(text)) {
      world.flags.set(key, true);
      return what;
    }
  }
  return null;
}
