/** The concierge (M44–M46): the hub's own agent, which watches the fleet for the person. */

import { type Static, Type } from "typebox";
import { JobRef, Maybe, NumberedId, Text } from "./fields.js";
import { LIMITS } from "./limits.js";

/** A job's role: the concierge, or none. */
export type JobRole = "concierge";

/** How far the concierge may answer for the person: `routine` questions only, or any. */
export const ANSWER_POLICIES = ["never", "routine", "always"] as const;
export type AnswerPolicy = (typeof ANSWER_POLICIES)[number];

export interface ConciergePolicy {
  answer: AnswerPolicy;
  /** Whether it may stop, respawn and dispatch sessions (`concierge-act`). */
  act: boolean;
}

/** The one line that gives the default concierge (pi) a model, as the errors and the hub say it. */
export const CONFIGURE_MODEL_LINE = `"concierge": {"model": "PROVIDER/ID"} in roost.json`;

export interface ConciergeStatus {
  /** Whether its job is live (starting or running) and has not failed. */
  running: boolean;
  /** Why its job failed (it ended so, or its agent reports a failed run), else null. */
  failed: string | null;
  /** Why `on` cannot start it (no model for the default concierge), else null: it is not offered. */
  unavailable: string | null;
  /** Its job while it has one (a stopped one too: `on` starts it again). */
  job: { id: string; name: string; lifecycle: string; connected: boolean } | null;
  policy: ConciergePolicy;
  /** Replies it gave in the person's place (withdrawn ones included). */
  answered: number;
  /** Standing orders kept. */
  orders: number;
  /** Its last reply, while it can be undone. */
  undoable: { jobId: string; name: string; text: string; at: string } | null;
}

export const CONCIERGE_ACTIONS = ["on", "off", "status", "answer", "act", "undo"] as const;

/** What it tells the person: `info`, `need` (the person is needed), or an `answer` to an ask. */
export const SAY_KINDS = ["info", "need", "answer"] as const;
export type SayKind = (typeof SAY_KINDS)[number];

/** A suggested answer on a waiting row; the person accepts it with one key. */
export interface Suggested {
  text: string;
  why: string | null;
  at: string;
}

/** Who gave a standing order. */
export type OrderBy = "user" | "concierge";

export interface StandingOrder {
  id: number;
  text: string;
  /** A schedule's `when` (`every 30m`, `daily 18:00`, ...), or null: it stands, on no clock. */
  when: string | null;
  by: OrderBy;
  at: string;
  /** When the concierge last said it applied it. */
  lastAt: string | null;
  /** The next due time, local time with its offset; null without a clock. */
  nextAt: string | null;
  /** How often it was applied. */
  count: number;
}

export const ORDER_ACTIONS = ["add", "rm", "list", "applied"] as const;

export interface ConciergeOrderResult {
  orders: StandingOrder[];
  order?: StandingOrder;
}

/** Why a digest was sent: what happened in the fleet, or an order whose time has come. */
export type DigestWhy = "events" | "order";

/** To subscribed hubs: the concierge's status changed, or it said something (`said`). */
export interface ConciergeEvent {
  event: "concierge";
  status: ConciergeStatus;
  said?: { kind: SayKind; text: string; at: string };
}

export const CONCIERGE_LIMITS = {
  /** What it says, suggests or replies. */
  text: 2000,
  why: 500,
  orders: 50,
  orderText: 1000,
  /** A digest's text, whole: the parts past it are cut with a count of what was left out. */
  digestChars: 8000,
  /** Events one digest lists (the newest). */
  digestEvents: 40,
  /** Rows one digest lists. */
  digestRows: 30,
} as const;

/** What a new session runs: a dispatch's arguments (its request id is the daemon's business here). */
const Launch = Type.Object({
  profile: Text(),
  task: Maybe(Type.String({ maxLength: LIMITS.replyText })),
  cwd: Maybe(Type.String()),
  name: Maybe(Type.String()),
});

const ConciergeText = Text({ maxLength: CONCIERGE_LIMITS.text });
const Why = Maybe(Type.String({ maxLength: CONCIERGE_LIMITS.why }));

/** `concierge {action}`: `answer` with `answer`, `act` with `act`, `on` with an optional `launch`. */
export const ConciergeArgs = Type.Object({
  action: Type.Enum(CONCIERGE_ACTIONS),
  launch: Maybe(Launch),
  answer: Maybe(Type.Enum(ANSWER_POLICIES)),
  act: Maybe(Type.Boolean()),
});
export type ConciergeArgs = Static<typeof ConciergeArgs>;

export const ConciergeAskArgs = Type.Object({ text: Text({ maxLength: LIMITS.replyText }) });

export const ConciergeSayArgs = Type.Object({ kind: Type.Enum(SAY_KINDS), text: ConciergeText });
export type ConciergeSayArgs = Static<typeof ConciergeSayArgs>;

/** A suggestion for a waiting session (an id or a unique name), or a reply in the person's place. */
export const ConciergeSuggestArgs = Type.Object({ id: JobRef, text: ConciergeText, why: Why });
export type ConciergeSuggestArgs = Static<typeof ConciergeSuggestArgs>;
export const ConciergeReplyArgs = ConciergeSuggestArgs;

/** `stop` or `respawn` with `id`; `dispatch` with `launch`. */
export const ConciergeActArgs = Type.Object({
  what: Type.Enum(["stop", "respawn", "dispatch"]),
  id: Maybe(JobRef),
  launch: Maybe(Launch),
});
export type ConciergeActArgs = Static<typeof ConciergeActArgs>;

/** `add` with `text` (and `when`), `rm` and `applied` with `id` (`applied` with what was done, `text`). */
export const ConciergeOrderArgs = Type.Object({
  action: Type.Enum(ORDER_ACTIONS),
  id: Maybe(NumberedId),
  text: Maybe(Type.String({ maxLength: CONCIERGE_LIMITS.text })),
  when: Maybe(Type.String()),
});
export type ConciergeOrderArgs = Static<typeof ConciergeOrderArgs>;
