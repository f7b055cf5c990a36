import type { DeliverEvent } from "../protocol/events.js";
import type { FinishedLedger } from "./finished-replies.js";

/** What the agent does with a reply. It is acked once this returns (or its promise settles). */
export type ReplyHandler = (reply: DeliverEvent) => unknown;

export interface ReplyQueueOptions {
  handler: ReplyHandler;
  ledger: FinishedLedger;
  /** Sends the ack: cumulative for a user reply, `exact` for an agent item. */
  ack(seq: number, exact: boolean): void;
  /** A handler threw; the reply still counts as handled, so that it does not come back forever. */
  onHandlerError?(error: unknown, reply: DeliverEvent): void;
}

/** Agent items (peer messages, reports, notices, digests) carry a kind and are acked one by one. */
function isAgentItem(reply: DeliverEvent): boolean {
  return reply.kind !== undefined;
}

/**
 * Hands replies to the handler once each, in order, one at a time. A reply is recorded as finished
 * in the ledger and then acked, after its handler returns; one finished before (a resend after a
 * reconnect or a restart) is dropped and acked again.
 */
export class ReplyQueue {
  private readonly waiting: DeliverEvent[] = [];
  private running: DeliverEvent | undefined;
  private holding = false;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: ReplyQueueOptions) {}

  /** Takes a delivery from the daemon. */
  offer(reply: DeliverEvent): void {
    if (this.stopped || !Number.isSafeInteger(reply.seq) || typeof reply.text !== "string") return;
    const exact = isAgentItem(reply);
    if (this.options.ledger.isFinished(reply.seq, exact)) {
      this.options.ack(reply.seq, exact);
      return;
    }
    if (this.isTaken(reply)) return;
    // User replies keep seq order even when a resend overtakes a later one; items keep arrival order.
    const at = exact ? -1 : this.waiting.findIndex((w) => !isAgentItem(w) && w.seq > reply.seq);
    if (at === -1) this.waiting.push(reply);
    else this.waiting.splice(at, 0, reply);
    this.pump();
  }

  /** Starts no further handler; one running still counts if it finishes before `stop`. */
  hold(): void {
    this.holding = true;
  }

  /** From now on nothing is recorded or acked: a handler still running comes again on the next start. */
  stop(): void {
    this.holding = true;
    this.stopped = true;
    this.waiting.length = 0;
    this.settleIdle();
  }

  /** Resolves once nothing is waiting or running. */
  idle(): Promise<void> {
    if (!this.running && (this.waiting.length === 0 || this.holding)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isTaken(reply: DeliverEvent): boolean {
    const same = (other: DeliverEvent | undefined) =>
      other !== undefined && other.seq === reply.seq && isAgentItem(other) === isAgentItem(reply);
    return same(this.running) || this.waiting.some(same);
  }

  private pump(): void {
    if (this.running) return;
    const next = this.holding ? undefined : this.waiting.shift();
    if (!next) {
      this.settleIdle();
      return;
    }
    this.running = next;
    void this.handle(next);
  }

  private async handle(reply: DeliverEvent): Promise<void> {
    try {
      await this.options.handler(reply);
    } catch (error) {
      this.options.onHandlerError?.(error, reply);
    }
    this.running = undefined;
    if (!this.stopped) {
      const exact = isAgentItem(reply);
      try {
        this.options.ledger.record(reply.seq, exact);
        this.options.ack(reply.seq, exact);
      } catch (error) {
        // Not recorded, so not acked: it comes again, rather than being lost.
        this.options.onHandlerError?.(error, reply);
      }
    }
    this.pump();
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
