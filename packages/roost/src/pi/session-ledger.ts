import { FinishedLedger } from "../client/finished-replies.js";
import { AGENT_MESSAGE_TYPE } from "../protocol/agent-message.js";

/** The custom entry that marks a user reply as taken into the session (never sent to the model). */
export const REPLY_ENTRY_TYPE = "pi-roost-reply";

/** A session entry as pi keeps it (only the fields read here). */
interface SessionEntryLike {
  type?: string;
  customType?: string;
  data?: { seq?: unknown };
  details?: { seq?: unknown };
}

/**
 * The finished-replies record, also seeing what the session holds: an agent item whose custom
 * message is in it, and user replies up to the last one marked taken. So a delivery sent again
 * after pi was killed (before its ack reached the daemon) is dropped, never twice in the transcript.
 */
export class SessionLedger extends FinishedLedger {
  private itemsInSession = new Set<number>();
  private repliesInSession = 0;

  /** Reads the session's entries (on every session start: a resume brings its own). */
  readSession(entries: readonly unknown[]): void {
    for (const raw of entries as SessionEntryLike[]) {
      if (raw?.type === "custom_message" && raw.customType === AGENT_MESSAGE_TYPE) {
        const seq = raw.details?.seq;
        if (typeof seq === "number") this.itemsInSession.add(seq);
      } else if (raw?.type === "custom" && raw.customType === REPLY_ENTRY_TYPE) {
        const seq = raw.data?.seq;
        if (typeof seq === "number") this.repliesInSession = Math.max(this.repliesInSession, seq);
      }
    }
  }

  override isFinished(seq: number, exact: boolean): boolean {
    if (super.isFinished(seq, exact)) return true;
    return exact ? this.itemsInSession.has(seq) : seq <= this.repliesInSession;
  }
}
