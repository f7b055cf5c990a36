/** The events feed (the `events` op): what happened across the jobs, the last 1000 kept. */

import { type Static, Type } from "typebox";
import { Count, JobRef, Maybe } from "./fields.js";
import { LIMITS } from "./limits.js";

export const FEED_KINDS = ["task", "schedule", "budget"] as const;
/** Kinds grow as more of the daemon writes to the feed. */
export type FeedKind = (typeof FEED_KINDS)[number] | (string & {});

export interface FeedEvent {
  /** The event's cursor: increasing, never reused. */
  id: number;
  at: string;
  kind: FeedKind;
  /** What happened, within the kind (`add`, `claim`, `run`, `skip`, ...). */
  why: string;
  /** One line for people: `#3 write the tests: done`. */
  text: string;
  /** Who caused it: `user`, a session's name, or `roost` (the daemon itself). */
  who: string;
  /** The job that caused it, when one did. */
  whoId: string | null;
  /** The jobs it is about (for `events {id}`). */
  jobs: string[];
  taskId?: number;
  scheduleId?: number;
}

export const EventsArgs = Type.Object({
  /** A cursor: the events after it, oldest first. */
  after: Maybe(Count(0, Number.MAX_SAFE_INTEGER)),
  /** At most this many (default and most: 1000); without `after`, the newest ones. */
  limit: Maybe(Count(1, LIMITS.eventsKept)),
  /** Only the events about this job (an id or a unique name). */
  id: Maybe(JobRef),
});
export type EventsArgs = Static<typeof EventsArgs>;

export interface EventsResult {
  events: FeedEvent[];
  /** Pass as `after` to get what comes next. */
  cursor: number;
}
