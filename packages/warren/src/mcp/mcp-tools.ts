import { MAX_SLEEP_MS } from "../engine/command-payload.js";
import type { Briefing, CommandPayload } from "../protocol/index.js";

/** A tool as the MCP server lists it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties?: Record<string, unknown>; required?: string[] };
}

/** The tools every agent has beside its catalogue: they are not actions of the world. */
export const OBSERVE_TOOL = "observe";
export const SLEEP_TOOL = "sleep";
export const NOOP_TOOL = "noop";

const SEAT_TOOLS: McpTool[] = [
  {
    name: OBSERVE_TOOL,
    description:
      "The current observation as text, with what you can do now (affordances). Waits a bounded while for one if none is due yet.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: SLEEP_TOOL,
    description: "Sleep this many simulated milliseconds, unless something wakes you first.",
    inputSchema: {
      type: "object",
      properties: { ms: { type: "integer", minimum: 1, maximum: MAX_SLEEP_MS } },
      required: ["ms"],
    },
  },
  {
    name: NOOP_TOOL,
    description: "Do nothing until something wakes you.",
    inputSchema: { type: "object", properties: {} },
  },
];

/** The agent's own catalogue (each tool's input_schema as is) and then observe, sleep and noop. */
export function toolsOf(briefing: Briefing): McpTool[] {
  const own = briefing.tool_catalog.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.input_schema as McpTool["inputSchema"],
  }));
  const taken = new Set(own.map((t) => t.name));
  return [...own, ...SEAT_TOOLS.filter((t) => !taken.has(t.name))];
}

/** The command a call makes, or a reason it is none (an unknown tool, a bad sleep). */
export function payloadOf(
  briefing: Briefing,
  tool: string,
  args: Record<string, unknown>,
): { payload: CommandPayload } | { error: string } {
  if (briefing.tool_catalog.some((t) => t.name === tool)) return { payload: { action: tool, args } };
  if (tool === NOOP_TOOL) return { payload: { noop: true } };
  if (tool === SLEEP_TOOL) {
    const ms = args.ms;
    if (!Number.isInteger(ms) || (ms as number) < 1 || (ms as number) > MAX_SLEEP_MS) {
      return { error: `sleep needs ms, an integer from 1 to ${MAX_SLEEP_MS}` };
    }
    return { payload: { sleep_ms: ms as number } };
  }
  const names = toolsOf(briefing).map((t) => t.name);
  return { error: `there is no tool "${tool}"; tools: ${names.join(", ")}` };
}

/** The briefing as the MCP server's instructions: who the agent is, its goals and the rules. */
export function instructionsOf(briefing: Briefing): string {
  const objectives = briefing.objectives.map((o) => `- ${o.id}: ${o.description}`).join("\n");
  const c = briefing.conventions;
  return [
    `You play ${briefing.name} (${briefing.agent_id}, ${briefing.role}) in the warren scenario ${briefing.scenario}.`,
    briefing.premise,
    `Objectives:\n${objectives}`,
    `Grid: ${c.grid_naming} Sight radius ${c.sight_radius}. Budgets: ${c.budgets.max_messages} messages, ${c.budgets.max_inventory} items carried.`,
    c.decision,
    briefing.notes,
    "Each tool call is one command answering the current observation; its result is the receipt, the outcome and the next observation. Call observe first.",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}
