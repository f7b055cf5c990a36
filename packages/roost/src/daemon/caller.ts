import type { AgentInfo, DaemonEvent } from "../protocol/index.js";

/** Who a connection speaks as: unidentified (the user's side never says), or a session (an agent, after hello or report). */
export type CallerRole = "unidentified" | "session";

/** What an agent said in its hello, kept with the job once the connection reports. */
export interface HelloInfo {
  protocol: number;
  agent: AgentInfo;
  capabilities: string[];
}

/** A connection as the ops see it: no transport, only what they need. */
export interface Caller {
  readonly connectionId: number;
  role: CallerRole;
  /** The job this connection reports for (set by its first report). */
  jobId: string | null;
  hello: HelloInfo | null;
  subscribed: boolean;
  /** The most requests in flight at once on this connection. */
  readonly inFlightPeak: number;
  /** Sends an unasked event. */
  send(event: DaemonEvent): void;
  /** Sends unasked events together, in one write: a batch of row changes costs one. */
  sendEach(events: readonly DaemonEvent[]): void;
  /** Runs after the current request's response is written (so events follow their answer). */
  later(fn: () => void): void;
  readonly closed: boolean;
}
