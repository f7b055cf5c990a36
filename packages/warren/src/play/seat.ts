import type { Question } from "./question.js";

/** A person's answer, with the command id that every resend of the same answer carries. */
export interface SeatReply {
  text: string;
  commandId: string;
}

/**
 * Where the person playing sits: a roost row (the question and choices of a protocol agent's report)
 * or a terminal. Replies come one at a time; the next only once the handler has returned.
 */
export interface Seat {
  /** Shows an observation and what it asks. */
  ask(question: Question): void;
  /** Says what happens meanwhile. */
  tell(summary: string): void;
  /** Starts handing replies over. */
  listen(handle: (reply: SeatReply) => Promise<void>): void;
  /** The run is over: says how it ended and lets go. */
  end(summary: string, completed: boolean): Promise<void>;
  /** Where the player keeps its record across restarts, if anywhere. */
  readonly recordPath: string | undefined;
}
