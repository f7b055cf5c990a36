import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CONFIGURE_MODEL_LINE } from "../../protocol/index.js";

/** pi's own folder, as pi finds it: `PI_CODING_AGENT_DIR` (a leading `~` is the home), else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (!dir) return join(homedir(), ".pi", "agent");
  return dir === "~" ? homedir() : dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir;
}

/** Whether pi's settings.json names a default model (both `defaultProvider` and `defaultModel`). */
function piHasDefaultModel(agentDir: string): boolean {
  try {
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const named = (value: unknown) => typeof value === "string" && value.trim() !== "";
    return named(settings.defaultProvider) && named(settings.defaultModel);
  } catch {
    return false;
  }
}

/**
 * Why the default concierge (pi) cannot run, or null when it can: it needs a model, named by
 * roost.json's `concierge.model` or by pi's own default (its settings.json). Without one pi starts
 * and fails its first run ("No API provider registered"), so it is not offered.
 */
export function conciergeCannotRun(
  model: string | null,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (model !== null) return null;
  const agentDir = piAgentDir(env);
  if (piHasDefaultModel(agentDir)) return null;
  return `no model is configured for the concierge: put ${CONFIGURE_MODEL_LINE} (a model pi has, with its key), or set pi's default model (defaultProvider and defaultModel in ${join(agentDir, "settings.json")})`;
}
