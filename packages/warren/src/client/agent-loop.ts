import { randomUUID } from "node:crypto";
import type { Briefing, CommandPayload, Envelope, Receipt, Usage } from "../protocol/index.js";
import { excludedByAffordances } from "./affordance-check.js";
import { type AgentSession, RunEndedError } from "./agent-session.js";
import { UnreportedUsage } from "./unreported-usage.js";

export interface DecisionContext {
  envelope: Envelope;
  briefing: Briefing;
  /**
   * Why the previous try for this envelope was rejected (by the server, or before sending because
   * the affordances exclude it); decide again with it in mind.
   */
  rejection?: string;
}

/** A decision, with what the agent spent making it when it knows (its model's tokens and cost). */
export type DecidedCommand = CommandPayload & { usage?: Usage };

export type Decide = (context: DecisionContext) => DecidedCommand | Promise<DecidedCommand>;

export interface PlayOptions {
  /** Long-poll wait in seconds (default 25; the server caps it). */
  waitS?: number;
  /** Tries per envelope after rejections before answering with a noop (default 3). */
  triesPerObservation?: number;
  onReceipt?: (receipt: Receipt, envelope: Envelope) => void;
}

/**
 * The observe → decide → submit loop until the run ends: claims (or resumes) the lease, reads
 * the briefing (refetched only when an envelope names a new revision), answers every observation
 * with one command. A decision the envelope's affordances exclude is never sent: it counts as a
 * rejected try. The usage a decision reports goes with the next command the server accepts, so
 * tries that were not accepted are counted too. Resolves with the run's terminal status.
 */
export async function playAgent(
  session: AgentSession,
  decide: Decide,
  options: PlayOptions = {},
): Promise<string> {
  const tries = options.triesPerObservation ?? 3;
  try {
    const unreported = new UnreportedUsage();
    const claim = await session.claim();
    let briefing = await session.briefing(claim.briefing_revision);
    for (;;) {
      const envelope = await session.observe(options.waitS ?? 25);
      if (!envelope) continue;
      briefing = await session.briefing(envelope.briefing_revision);
      let rejection: string | undefined;
      for (let attempt = 0; ; attempt++) {
        const { usage, ...payload }: DecidedCommand =
          attempt < tries ? await decide({ envelope, briefing, rejection }) : { noop: true };
        unreported.add(usage);
        const excluded = excludedByAffordances(envelope.affordances, payload);
        if (excluded) {
          rejection = excluded;
          continue;
        }
        const commandId = randomUUID();
        const receipt = await unreported.carry((usage) =>
          session.submit(envelope, payload, commandId, usage),
        );
        options.onReceipt?.(receipt, envelope);
        if (receipt.status !== "rejected") break;
        rejection = receipt.detail;
      }
    }
  } catch (error) {
    if (error instanceof RunEndedError) return error.status;
    throw error;
  }
}
