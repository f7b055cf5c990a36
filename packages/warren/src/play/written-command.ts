import { MAX_SLEEP_MS } from "../engine/command-payload.js";
import { argsProblem } from "../engine/tool-validation.js";
import type { CommandPayload, ToolSpec } from "../protocol/index.js";

/**
 * The short written form of a command a person types or picks: `take toolbox-1`, `move_to bridge`,
 * `message courier-1 the planks are at the barn`, `repair`, `sleep 5000`, `noop`. A tool's arguments
 * come in the order its input_schema lists them; the last string argument takes the rest of the line.
 * A JSON object (`message {"to": "courier-1", "text": "hi"}`) or a quoted string works too.
 */

export type ReadCommand = { payload: CommandPayload; written: string } | { error: string };

type PropertySchema = { type?: unknown };

function properties(tool: ToolSpec): [string, PropertySchema][] {
  const props = tool.input_schema.properties;
  return props && typeof props === "object" ? Object.entries(props as Record<string, PropertySchema>) : [];
}

/** A bare word stays bare when reading it back gives the same string. */
function isBare(value: string): boolean {
  return value !== "" && !/\s/.test(value) && !value.startsWith('"') && !value.startsWith("{");
}

/** The written form of a payload: what `readCommand` turns back into the same payload. */
export function writeCommand(payload: CommandPayload, catalog: readonly ToolSpec[]): string {
  if ("noop" in payload) return "noop";
  if ("sleep_ms" in payload) return `sleep ${payload.sleep_ms}`;
  const args = payload.args ?? {};
  const tool = catalog.find((t) => t.name === payload.action);
  const names = tool ? properties(tool).map(([name]) => name) : [];
  const given = Object.keys(args);
  // Positional only when the arguments are the schema's first ones, in its order.
  if (!tool || given.some((name, i) => names[i] !== name)) {
    return given.length ? `${payload.action} ${JSON.stringify(args)}` : payload.action;
  }
  const words = given.map((name, i) => {
    const value = args[name];
    if (typeof value !== "string") return JSON.stringify(value);
    const last = i === given.length - 1;
    return (last ? value !== "" && !value.startsWith('"') && !value.startsWith("{") : isBare(value))
      ? value
      : JSON.stringify(value);
  });
  return [payload.action, ...words].join(" ");
}

/** A typed word as the schema's type wants it; left a string when it does not read as one. */
function typedValue(word: string, schema: PropertySchema | undefined): unknown {
  if (word.startsWith('"')) {
    try {
      return JSON.parse(word);
    } catch {
      return word;
    }
  }
  const type = schema?.type;
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(word)) return Number(word);
  if (type === "boolean" && (word === "true" || word === "false")) return word === "true";
  return word;
}

const WORD = /"(?:[^"\\]|\\.)*"|\S+/g;

function usage(tool: ToolSpec): string {
  const names = properties(tool).map(([name]) => name.toUpperCase());
  return [tool.name, ...names].join(" ");
}

/** Every way to answer, one line: for a clear answer when a command does not fit. */
export function commandsUsage(catalog: readonly ToolSpec[]): string {
  return [...catalog.map(usage), "sleep MS", "noop"].join(", ");
}

/** Reads a tool's arguments from the rest of the line. */
function readArgs(tool: ToolSpec, rest: string): { args: Record<string, unknown> } | { error: string } {
  const trimmed = rest.trim();
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        return { args: parsed as Record<string, unknown> };
      }
    } catch {}
    return { error: `${tool.name}'s arguments are not a JSON object: ${trimmed.slice(0, 80)}` };
  }
  const props = properties(tool);
  const args: Record<string, unknown> = {};
  const words = [...trimmed.matchAll(WORD)];
  for (let i = 0; i < words.length; i++) {
    const prop = props[i];
    if (!prop) {
      const takes = props.length ? `only ${props.map(([n]) => n).join(", ")}` : "no arguments";
      return {
        error: `${tool.name} takes ${takes} (usage: ${usage(tool)}); "${words[i]![0]}" is one too many`,
      };
    }
    const [name, schema] = prop;
    const isLast = i === props.length - 1;
    if (isLast && schema.type === "string" && i < words.length - 1) {
      // The last string argument takes the rest of the line as typed.
      args[name] = trimmed.slice(words[i]!.index);
      break;
    }
    args[name] = typedValue(words[i]![0], schema);
  }
  return { args };
}

/**
 * Reads a reply: a choice's number (1 for the first of `choices`), or a written command checked
 * against the briefing's tool catalogue. The error says what fits instead.
 */
export function readCommand(
  text: string,
  choices: readonly string[],
  catalog: readonly ToolSpec[],
): ReadCommand {
  const line = text.trim();
  if (/^\d+$/.test(line)) {
    const n = Number(line);
    const choice = choices[n - 1];
    if (choice === undefined) {
      return { error: `${line} is not a choice: pick 1 to ${choices.length}, or type a command` };
    }
    return readCommand(choice, [], catalog);
  }
  const [name = "", ...more] = line.split(/\s+/);
  const rest = line.slice(name.length);
  if (name === "noop") {
    if (more.length) return { error: `noop takes nothing (got "${rest.trim()}")` };
    return { payload: { noop: true }, written: "noop" };
  }
  if (name === "sleep") {
    const ms = rest.trim();
    if (!/^\d+$/.test(ms) || Number(ms) < 1 || Number(ms) > MAX_SLEEP_MS) {
      return {
        error: `sleep takes a whole number of sim milliseconds from 1 to ${MAX_SLEEP_MS} (got "${ms}")`,
      };
    }
    return { payload: { sleep_ms: Number(ms) }, written: `sleep ${Number(ms)}` };
  }
  const tool = catalog.find((t) => t.name === name);
  if (!tool) {
    return {
      error: `${name ? `"${name}" is not a command` : "the reply is empty"}; answer with a choice's number or one of: ${commandsUsage(catalog)}`,
    };
  }
  const read = readArgs(tool, rest);
  if ("error" in read) return read;
  const { args } = read;
  const problem = argsProblem(tool.name, tool.input_schema, args);
  if (problem) return { error: `${problem} (usage: ${usage(tool)})` };
  const payload: CommandPayload = { action: tool.name, args };
  return { payload, written: writeCommand(payload, catalog) };
}
