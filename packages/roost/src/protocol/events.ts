import type { DeliverKind } from "./agent-message.js";
import type { AttachEvent } from "./attach.js";
import type { BoardEvent } from "./board.js";
import type { ConciergeEvent, DigestWhy } from "./concierge.js";
import type { ReplyMode } from "./ops.js";
import type { JobRow } from "./rows.js";

/** A reply (or agent item) for the agent: `{"event": "deliver", ...}`. */
export interface DeliverEvent {
  event: "deliver";
  id: string;
  seq: number;
  text: string;
  mode?: ReplyMode;
  kind?: DeliverKind;
  from?: string;
  relation?: string;
  /** A digest's reason: what happened (`events`), or a standing order's time (`order`). */
  why?: DigestWhy;
}

/** A row changed (to subscribers). */
export interface RowEvent {
  event: "row";
  row: JobRow;
}

/** A row was removed (to subscribers). */
export interface RowRemovedEvent {
  event: "row-removed";
  id: string;
}

export type DaemonEvent =
  | DeliverEvent
  | RowEvent
  | RowRemovedEvent
  | BoardEvent
  | AttachEvent
  | ConciergeEvent;
