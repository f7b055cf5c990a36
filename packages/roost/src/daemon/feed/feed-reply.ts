import type { ReplyMode } from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";
import type { EventsFeed } from "./events-feed.js";

/** The user's reply in the events feed: `reply`, `steer` or `typed` (into a terminal), to whom, and its start. */
export function feedReply(feed: EventsFeed, job: Job, text: string, mode: ReplyMode | null): void {
  feed.add({
    kind: "reply",
    why: mode === "steer" ? "steer" : job.kind === "terminal" ? "typed" : "reply",
    text: `${job.name}: ${text.replace(/\s+/g, " ").slice(0, 120)}`,
    who: "user",
    whoId: null,
    jobs: [job.id],
  });
}
