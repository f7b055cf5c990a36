import type { BoardTask } from "./board.js";
import type { ConciergeEvent, ConciergeStatus } from "./concierge.js";
import type { FeedEvent } from "./feed.js";

/**
 * What the page shows besides the rows: the task board, the events feed and the concierge's line.
 * `roost web` reads them once for every page (the board and the concierge again as the daemon
 * pushes their changes, the feed by its cursor each second, as the hub does) and sends each page
 * what it needs: all of it when it connects, then each change.
 */

/** The most feed events a page is sent when it connects, and keeps. */
export const WEB_FEED_KEPT = 100;

/** The person's ops on them: the board's (`task`: add, drop, assign ...) and an ask of the concierge. */
export const WEB_FEED_OPS = ["task", "concierge-ask"] as const;

/** Server → page. */
export type WebFeedMessage =
  /** The whole board, oldest first, after each change; null: the daemon has no board. */
  | { type: "board"; tasks: BoardTask[] | null }
  /** Events of the feed, oldest first: the newest kept (`reset`: in place of those sent before), or new ones. */
  | { type: "feed"; events: FeedEvent[]; reset: boolean }
  /** The concierge's state and what it said last; null status: the daemon has no concierge. */
  | { type: "concierge"; status: ConciergeStatus | null; said: ConciergeEvent["said"] | null };
