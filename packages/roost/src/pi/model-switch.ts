import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { RoostError } from "../protocol/errors.js";

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** A model as roost shows and passes it: `provider/id`. */
export function modelName(model: { provider: string; id: string }): string {
  return `${model.provider}/${model.id}`;
}

/** Switches pi's model to `provider/id` (or an id that one provider alone has). */
export async function switchModel(pi: ExtensionAPI, ctx: ExtensionContext, wanted: string): Promise<void> {
  const slash = wanted.indexOf("/");
  const provider = slash === -1 ? undefined : wanted.slice(0, slash);
  const id = slash === -1 ? wanted : wanted.slice(slash + 1);
  const found = ctx.modelRegistry
    .getAll()
    .filter((m) => m.id === id && (provider === undefined || m.provider === provider));
  if (found.length !== 1)
    throw new RoostError(
      found.length === 0 ? "not_found" : "bad_request",
      found.length === 0
        ? `pi has no model ${wanted}`
        : `${found.length} providers have a model ${id}: name one`,
    );
  if (!(await pi.setModel(found[0]!))) throw new RoostError("unsupported", `no API key for ${wanted}`);
}

/** Sets pi's thinking level (pi clamps it to what the model can do). */
export function switchThinking(pi: ExtensionAPI, level: string): void {
  if (!(THINKING_LEVELS as readonly string[]).includes(level))
    throw new RoostError("bad_request", `thinking must be one of ${THINKING_LEVELS.join(", ")}`);
  pi.setThinkingLevel(level as ThinkingLevel);
}
