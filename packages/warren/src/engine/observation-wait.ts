import type { Clock } from "./clock.js";
import type { Envelope, RunSummary } from "./types.js";

/** A long poll for an agent's next envelope, which its caller may give up on. */
export interface ObservationWait {
  /** The envelope, or undefined on timeout, at the run's end, or once cancelled. */
  envelope: Promise<Envelope | undefined>;
  /** Gives up waiting (the client hung up), so a dropped long poll holds nothing. */
  cancel(): void;
}

/** What a wait needs of its run: the agent's envelope outstanding now, its next ones, the end, the run's clock. */
export interface ObservationSource {
  readonly outstanding: Envelope | undefined;
  readonly ended: boolean;
  readonly clock: Clock;
  /** Called for each new envelope of the agent waited for. */
  onObservation(listener: (envelope: Envelope) => void): () => void;
  onEnd(listener: (summary: RunSummary) => void): () => void;
}

/**
 * The agent's outstanding envelope at once, whatever `afterSeq` says (delivery is at-least-once:
 * a client that lost it gets it back); with none outstanding, the next one issued for the agent
 * with seq > afterSeq, waiting up to waitMs on the run's clock.
 */
export function awaitObservation(
  source: ObservationSource,
  afterSeq: number,
  waitMs: number,
): ObservationWait {
  const ready = source.outstanding;
  if (ready) return { envelope: Promise.resolve(ready), cancel: () => {} };
  if (source.ended || waitMs <= 0) return { envelope: Promise.resolve(undefined), cancel: () => {} };
  let finish!: (envelope: Envelope | undefined) => void;
  const envelope = new Promise<Envelope | undefined>((resolve) => {
    finish = (found) => {
      cancelTimer();
      offObservation();
      offEnd();
      resolve(found);
    };
  });
  const offObservation = source.onObservation((issued) => {
    if (issued.seq > afterSeq) finish(issued);
  });
  const offEnd = source.onEnd(() => finish(undefined));
  const cancelTimer = source.clock.setTimer(waitMs, () => finish(undefined));
  return { envelope, cancel: () => finish(undefined) };
}
