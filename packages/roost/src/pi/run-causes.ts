import type { RunCause } from "../protocol/peers.js";

/** How strongly a cause makes a run worth reporting: a user's reply outranks a parent's message. */
const RANK: Record<RunCause, number> = { agent: 0, parent: 1, task: 2, user: 3 };

/**
 * What started the run under way, and what joined it: the hand-back says the strongest (a run that
 * a user reply joined always reports; one another agent started never does).
 */
export class RunCauses {
  private next: RunCause | undefined;
  private current: RunCause | undefined;

  /** The next run will be started by this (the queue is about to start it). */
  starting(cause: RunCause): void {
    this.next = this.stronger(this.next, cause);
  }

  /** Something joined the run under way (a steer), or will start the next one when idle. */
  joined(cause: RunCause, running: boolean): void {
    if (running) this.current = this.stronger(this.current, cause);
    else this.starting(cause);
  }

  /** A run began: it takes what was to start it; a person typing in pi's own editor counts as the user. */
  began(): void {
    this.current = this.next ?? "user";
    this.next = undefined;
  }

  /** The run ended: what started it (and joined it), and nothing is carried on. */
  ended(): RunCause {
    const cause = this.current ?? "user";
    this.current = undefined;
    return cause;
  }

  private stronger(a: RunCause | undefined, b: RunCause): RunCause {
    return a === undefined || RANK[b] > RANK[a] ? b : a;
  }
}
