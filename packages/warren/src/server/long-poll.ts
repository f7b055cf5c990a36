import type { Run } from "../engine/index.js";
import type { Envelope } from "../engine/types.js";

export interface ObservationWait {
  /** The envelope, or undefined on timeout, at the run's end, or once cancelled. */
  envelope: Promise<Envelope | undefined>;
  /** Gives up waiting (the client hung up), so a dropped long poll holds nothing. */
  cancel(): void;
}

/**
 * The agent's outstanding envelope at once, whatever `after` says (at-least-once delivery);
 * with none outstanding, waits up to waitMs for the next one with seq > after.
 */
export function awaitObservation(run: Run, agentId: string, after: number, waitMs: number): ObservationWait {
  const ready = run.outstanding(agentId);
  if (ready) return { envelope: Promise.resolve(ready), cancel: () => {} };
  if (run.isEnded || waitMs <= 0) return { envelope: Promise.resolve(undefined), cancel: () => {} };
  let finish!: (envelope: Envelope | undefined) => void;
  const envelope = new Promise<Envelope | undefined>((resolve) => {
    finish = (found) => {
      clearTimeout(timer);
      offObservation();
      offEnd();
      resolve(found);
    };
  });
  const timer = setTimeout(() => finish(undefined), waitMs);
  const offObservation = run.onObservation((issued) => {
    if (issued.agent_id === agentId && issued.seq > after) finish(issued);
  });
  const offEnd = run.onEnd(() => finish(undefined));
  return { envelope, cancel: () => finish(undefined) };
}
