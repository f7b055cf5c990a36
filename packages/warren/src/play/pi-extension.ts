import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { WarrenClient } from "../client/warren-client.js";
import { PiPlayer } from "./pi-player.js";

/** The environment variable naming what pi plays: `SERVER RUN AGENT`. */
export const WARREN_PLAY_ENV = "WARREN_PLAY";

/**
 * warren's pi extension: with `WARREN_PLAY="SERVER RUN AGENT"` in the environment, pi claims that
 * agent and plays it with the briefing's tools (see PiPlayer); without it, it does nothing.
 */
export default async function warrenPlayer(pi: ExtensionAPI): Promise<void> {
  const target = process.env[WARREN_PLAY_ENV]?.trim();
  if (!target) return;
  const [server, runId, agentId, extra] = target.split(/\s+/);
  if (!server || !runId || !agentId || extra !== undefined) {
    throw new Error(`${WARREN_PLAY_ENV} must be "SERVER RUN AGENT" (got "${target}")`);
  }
  const session = new WarrenClient(server, { token: process.env.WARREN_TOKEN || undefined }).agent(
    runId,
    agentId,
    { holder: "pi" },
  );
  const claim = await session.claim();
  const briefing = await session.briefing(claim.briefing_revision);
  // Kept in the session for whoever reads it later, never sent to the model.
  const log = (line: string): void => pi.appendEntry("warren", { line });
  new PiPlayer(pi, session, briefing, log).register();
}
