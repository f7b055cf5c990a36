import type { HubConnection } from "../hub/hub-connection.js";
import { isMissingOp } from "../hub/optional-ops.js";
import { type ConciergeEvent, SAY_KINDS, type SayKind } from "../protocol/concierge.js";
import type { FeedEvent } from "../protocol/feed.js";
import type { EventMessage } from "../protocol/messages.js";
import { WEB_FEED_KEPT, type WebFeedMessage } from "../protocol/web-feeds.js";

/** How often the feed is read on from its cursor: the daemon pushes no feed event, as the hub finds. */
const FEED_POLL_MS = 1000;

type Board = Extract<WebFeedMessage, { type: "board" }>;
type Concierge = Extract<WebFeedMessage, { type: "concierge" }>;

/**
 * The board, the events feed and the concierge as `roost web` keeps them for its pages: read after
 * each connection to the daemon, the board and the concierge again as the daemon pushes their
 * changes, the feed each second from its cursor; each change sent on to every page. A daemon without
 * one of the ops leaves it null, and the page hides it.
 */
export class WebFeeds {
  private events: FeedEvent[] = [];
  private cursor: number | undefined;
  private board: Board = { type: "board", tasks: null };
  private concierge: Concierge = { type: "concierge", status: null, said: null };
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly connection: HubConnection,
    private readonly send: (message: WebFeedMessage) => void,
  ) {}

  /** What a page is sent as it connects. */
  current(): WebFeedMessage[] {
    return [this.board, this.concierge, { type: "feed", events: this.events, reset: true }];
  }

  /** After each (re)connection: everything read anew, then the feed followed. */
  async connected(): Promise<void> {
    this.cursor = undefined;
    await Promise.all([this.readFeed(), this.readBoard(), this.readConcierge()]);
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.poll(), FEED_POLL_MS);
    this.timer.unref();
  }

  /** An event the daemon pushed: the board changed, or the concierge did or said something. */
  event(event: EventMessage): void {
    if (event.event === "board" || event.event === "task") void this.readBoard();
    if (event.event === "concierge") {
      const { status, said } = event as unknown as ConciergeEvent;
      this.concierge = { type: "concierge", status, said: said ?? this.concierge.said };
      this.send(this.concierge);
    }
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.connection.isConnected) return;
    this.polling = true;
    try {
      await this.readFeed();
    } finally {
      this.polling = false;
    }
  }

  private async readFeed(): Promise<void> {
    const first = this.cursor === undefined;
    try {
      const read = await this.connection.call(
        "events",
        first ? { limit: WEB_FEED_KEPT } : { after: this.cursor },
      );
      this.cursor = read.cursor;
      if (!first && read.events.length === 0) return;
      const fresh = read.events.slice(-WEB_FEED_KEPT);
      this.events = (first ? fresh : [...this.events, ...fresh]).slice(-WEB_FEED_KEPT);
      this.send({ type: "feed", events: first ? this.events : fresh, reset: first });
    } catch {
      // The daemon went away (read again once back), or has no feed: the page shows none.
    }
  }

  private async readBoard(): Promise<void> {
    try {
      this.board = { type: "board", tasks: (await this.connection.call("task", { action: "list" })).tasks };
    } catch (error) {
      if (!isMissingOp(error)) return;
      this.board = { type: "board", tasks: null };
    }
    this.send(this.board);
  }

  /** Its state, and what it said last: pushed since, or else its newest word in the feed. */
  private async readConcierge(): Promise<void> {
    try {
      const status = await this.connection.call("concierge", { action: "status" });
      const said = this.concierge.said ?? lastSaid(this.events);
      this.concierge = { type: "concierge", status, said };
    } catch (error) {
      if (!isMissingOp(error)) return;
      this.concierge = { type: "concierge", status: null, said: null };
    }
    this.send(this.concierge);
  }
}

/** The newest thing the concierge said among these events of the feed. */
function lastSaid(events: FeedEvent[]): Concierge["said"] {
  const event = events.findLast(
    (e) => e.kind === "concierge" && (SAY_KINDS as readonly string[]).includes(e.why),
  );
  return event ? { kind: event.why as SayKind, text: event.text, at: event.at } : null;
}
