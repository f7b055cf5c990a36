import type { ToolDefinition } from "./tool.js";
import { argsProblem, describeValue } from "./tool-validation.js";
import type { Decision, ToolArgs } from "./types.js";

/**
 * The payload of a command: exactly one of `action` (with `args`), `sleep_ms` or `noop: true`,
 * beside `command_id` and `observation_id`. Problems come back as a teaching sentence naming the
 * JSON path; nothing is coerced.
 */

export const MAX_SLEEP_MS = 86_400_000;
/** `usage` is checked before the payload (command-usage.ts): it is no part of the decision. */
const FIELDS = new Set(["command_id", "observation_id", "usage", "action", "args", "sleep_ms", "noop"]);

export type PayloadJudgement = { ok: true; decision: Decision } | { ok: false; detail: string };

export function judgePayload(
  body: Record<string, unknown>,
  tools: ReadonlyMap<string, ToolDefinition>,
): PayloadJudgement {
  const unknown = Object.keys(body).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) {
    return fail(
      `unknown field ${unknown.map((k) => `"${k}"`).join(", ")}; a command has command_id, observation_id, one of action (with args), sleep_ms or noop, and optionally usage`,
    );
  }
  const forms = (["action", "sleep_ms", "noop"] as const).filter((k) => k in body);
  if (forms.length === 0) return fail("a command needs one of: action (with args), sleep_ms, or noop: true");
  if (forms.length > 1)
    return fail(
      `a command takes exactly one of action, sleep_ms or noop; this one has ${forms.join(" and ")}`,
    );
  if (forms[0] !== "action" && "args" in body) return fail("args goes only with action");
  if (forms[0] === "noop") {
    return body.noop === true
      ? { ok: true, decision: { kind: "noop" } }
      : fail(`noop must be true (got ${describeValue(body.noop)})`);
  }
  if (forms[0] === "sleep_ms") {
    const ms = body.sleep_ms;
    if (typeof ms !== "number" || !Number.isInteger(ms)) {
      return fail(`sleep_ms must be an integer number of sim milliseconds (got ${describeValue(ms)})`);
    }
    if (ms < 1 || ms > MAX_SLEEP_MS)
      return fail(`sleep_ms must be between 1 and ${MAX_SLEEP_MS} (got ${ms})`);
    return { ok: true, decision: { kind: "sleep", sleep_ms: ms } };
  }
  const action = body.action;
  if (typeof action !== "string")
    return fail(`action must be a string naming one of your tools (got ${describeValue(action)})`);
  const tool = tools.get(action);
  if (!tool) {
    const hint =
      action === "noop"
        ? ' To do nothing, send {"noop": true}.'
        : action === "sleep"
          ? ' To wait, send {"sleep_ms": N}.'
          : "";
    return fail(`action "${action}" is not one of your tools (${[...tools.keys()].join(", ")}).${hint}`);
  }
  const args = "args" in body ? body.args : {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return fail(`args must be an object (got ${describeValue(args)})`);
  }
  const problem = argsProblem(action, tool.spec.input_schema, args);
  if (problem) return fail(problem);
  return { ok: true, decision: { kind: "action", action, args: args as ToolArgs } };
}

function fail(detail: string): PayloadJudgement {
  return { ok: false, detail };
}
