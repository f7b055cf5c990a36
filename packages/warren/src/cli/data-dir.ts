import { homedir } from "node:os";
import { join } from "node:path";

/** Where `warren serve` keeps its runs unless told: the user's state folder, as XDG puts it. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME;
  return join(state?.startsWith("/") ? state : join(homedir(), ".local", "state"), "warren");
}

/**
 * Where `warren sweep` writes unless told (`--out`): a folder per list of scenarios under the
 * state folder's `sweeps/`, so the same sweep started again resumes there, and more seeds or
 * mixes of those scenarios are added to it.
 */
export function defaultSweepDir(scenarios: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultDataDir(env), "sweeps", scenarios.join("+"));
}
