import { homedir } from "node:os";
import { join } from "node:path";

/** Where `warren serve` keeps its runs unless told: the user's state folder, as XDG puts it. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME;
  return join(state?.startsWith("/") ? state : join(homedir(), ".local", "state"), "warren");
}
