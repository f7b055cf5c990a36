import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { registerAgentMessageRenderer } from "../agent-message.js";
import { takeJobIdentity } from "../job-identity.js";
import { registerRoostTools } from "../roost-tools.js";
import { PiWorker } from "../worker.js";
import { registerConciergeTools } from "./tools.js";

/**
 * The concierge's pi extension: the job's worker (reports, the person's asks as replies, digests as
 * agent items that start a run), roost's peer tools and the concierge's own. Outside a roost job it
 * does nothing: the concierge is roost's.
 */
export default function concierge(pi: ExtensionAPI): void {
  const identity = takeJobIdentity();
  if (!identity) return;
  registerAgentMessageRenderer(pi);
  const worker = new PiWorker(pi, identity, { model: process.env.ROOST_MODEL || undefined });
  registerRoostTools(pi, async () => worker.peers);
  registerConciergeTools(pi, (op, args) => worker.call(op, args));
}
