import type { Run } from "../engine/index.js";
import type { Envelope } from "../engine/types.js";

/**
 * The agent's outstanding envelope with seq > after, waiting up to waitMs for one. Resolves
 * undefined on timeout, when the run ends, or when `abandoned` fires (the client hung up), so a
 * dropped long poll holds nothing.
 */
export function awaitObservation(
  run: Run,
  agentId: string,
  after: number,
  waitMs: number,
  abandoned: AbortSignal,
): Promise<Envelope | undefined> {
  const ready = run.outstanding(agentId);
  if (ready && ready.seq > after) return Promise.resolve(ready);
  if (run.isEnded || waitMs <= 0 || abandoned.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const finish = (envelope: Envelope | undefined): void => {
      clearTimeout(timer);
      offObservation();
      offEnd();
      abandoned.removeEventListener("abort", onAbort);
      resolve(envelope);
    };
    const onAbort = (): void => finish(undefined);
    const timer = setTimeout(() => finish(undefined), waitMs);
    const offObservation = run.onObservation((envelope) => {
      if (envelope.agent_id === agentId && envelope.seq > after) finish(envelope);
    });
    const offEnd = run.onEnd(() => finish(undefined));
    abandoned.addEventListener("abort", onAbort, { once: true });
  });
}
