import { randomUUID } from "node:crypto";
import type { Briefing, CommandPayload, Envelope, Receipt } from "../protocol/index.js";
import { excludedByAffordances } from "./affordance-check.js";
import { type AgentSession, RunEndedError } from "./agent-session.js";

export interface DecisionContext {
  envelope: Envelope;
  briefing: Briefing;
  /**
   * Why the previous try for this envelope was rejected (by the server, or before sending because
   * the affordances exclude it); decide again with it in mind.
   */
  rejection?: string;
}

export type Decide = (context: DecisionContext) => CommandPayload | Promise<CommandPayload>;

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
 * rejected try. Resolves with the run's terminal status.
 */
export async function playAgent(
  session: AgentSession,
  decide: Decide,
  options: PlayOptions = {},
): Promise<string> {
  const tries = options.triesPerObservation ?? 3;
  try {
    const claim = await session.claim();
    let briefing = await session.briefing(claim.briefing_revision);
    for (;;) {
      const envelope = await session.observe(options.waitS ?? 25);
      if (!envelope) continue;
      briefing = await session.briefing(envelope.briefing_revision);
      let rejection: string | undefined;
      for (let attempt = 0; ; attempt++) {
        const payload: CommandPayload =
          attempt < tries ? await decide({ envelope, briefing, rejection }) : { noop: true };
        const excluded = excludedByAffordances(envelope.affordances, payload);
        if (excluded) {
          rejection = excluded;
          continue;
        }
        const receipt = await session.submit(envelope, payload, randomUUID());
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
