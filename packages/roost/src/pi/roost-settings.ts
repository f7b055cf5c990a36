import { readFileSync } from "node:fs";
import { join } from "node:path";
import { roostHome } from "../home/paths.js";

/** What the pi extension reads from the user's roost.json. */
export interface PiSettings {
  /** `agentTools: false` keeps roost_agents, roost_send and roost_spawn out of pi's tools. */
  agentTools: boolean;
}

/** A missing or unreadable file leaves the defaults: the tools are on. */
export function readPiSettings(home: string = roostHome()): PiSettings {
  try {
    const raw = JSON.parse(readFileSync(join(home, "roost.json"), "utf8")) as { agentTools?: unknown };
    return { agentTools: raw?.agentTools !== false };
  } catch {
    return { agentTools: true };
  }
}
