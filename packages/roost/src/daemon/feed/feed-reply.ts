import type { ReplyMode } from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";
import { type EventsFeed, type FeedActor, USER } from "./events-feed.js";

/**
 * A reply in the events feed: `reply`, `steer` or `typed` (into a terminal), to whom, and its start;
 * the user's, or the concierge's in the user's place.
 */
export function feedReply(
  feed: EventsFeed,
  job: Job,
  text: string,
  mode: ReplyMode | null,
  by: FeedActor = USER,
): void {
  feed.add({
    kind: "reply",
    why: mode === "steer" ? "steer" : job.kind === "terminal" ? "typed" : "reply",
    text: `${job.name}: ${text.replace(/\s+/g, " ").slice(0, 120)}`,
    who: by.who,
    whoId: by.whoId,
    jobs: [job.id],
  });
}
