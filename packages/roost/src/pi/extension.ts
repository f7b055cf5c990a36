import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { roostHome } from "../home/paths.js";
import { PI_PROFILE } from "../home/pi-profile.js";
import { registerAgentMessageRenderer } from "./agent-message.js";
import { ForegroundLink } from "./foreground-link.js";
import { takeJobIdentity } from "./job-identity.js";
import { readPiSettings } from "./roost-settings.js";
import { registerRoostTools } from "./roost-tools.js";
import { PiWorker } from "./worker.js";

/**
 * roost's pi extension. Inside a roost job it is the job's worker (reports, replies, hand-back);
 * in a person's own pi it makes the session a peer on its first roost_* call. Either way it adds
 * roost_agents, roost_send and roost_spawn (unless `agentTools: false` in roost.json) and shows
 * agent messages as framed blocks.
 */
export default function roost(pi: ExtensionAPI): void {
  const identity = takeJobIdentity();
  const home = roostHome();
  registerAgentMessageRenderer(pi);
  if (identity) {
    const wanted = {
      model: process.env.ROOST_MODEL || undefined,
      thinking: process.env.ROOST_THINKING || undefined,
    };
    const worker = new PiWorker(pi, identity, wanted);
    if (readPiSettings(home).agentTools) registerRoostTools(pi, async () => worker.peers);
    return;
  }
  const link = new ForegroundLink(pi, home);
  // A foreground session's children are pi jobs.
  if (readPiSettings(home).agentTools) registerRoostTools(pi, (ctx) => link.ops(ctx), PI_PROFILE);
}
