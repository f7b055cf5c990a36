import type { ConciergeEvent } from "../protocol/concierge.js";
import type { EventMessage } from "../protocol/messages.js";
import type { HubConnection } from "./hub-connection.js";
import type { HubState } from "./hub-state.js";
import {
  boardCounts,
  boardTask,
  countTasks,
  feedItem,
  isMissingOp,
  listOf,
  scheduleItem,
} from "./optional-ops.js";

/** The most feed items the hub keeps. */
const FEED_KEPT = 200;

/**
 * The optional panes' data: the events feed, the task board and the schedules. Each is asked for
 * after every connection; a daemon without the op leaves it null, and its pane hidden.
 */
export class HubFeeds {
  private cursor: unknown;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly state: HubState,
    private readonly connection: HubConnection,
    private readonly changed: () => void,
    private readonly pollMs = 1000,
  ) {}

  /** After a (re)connection: asks for each feed, then polls the ones that exist. */
  async connected(): Promise<void> {
    this.cursor = undefined;
    await Promise.all([this.loadEvents(true), this.loadBoard(), this.loadSchedules(), this.loadConcierge()]);
    this.changed();
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  /** Pushed events: the board's counts and its changes. */
  event(event: EventMessage): void {
    const raw = event as unknown as Record<string, unknown>;
    if (event.event === "board" && this.state.board) {
      this.state.board.counts = boardCounts(raw);
      void this.loadBoard().then(this.changed);
      this.changed();
    }
    if (event.event === "task") void this.loadBoard().then(this.changed);
    if (event.event === "concierge") {
      const pushed = event as unknown as ConciergeEvent;
      const known = this.state.concierge;
      this.state.concierge = {
        status: pushed.status,
        said: pushed.said ?? known?.said ?? null,
        orders: known?.orders ?? [],
      };
      // The orders are read again when their number changed.
      if (!known || known.status.orders !== pushed.status.orders)
        void this.loadConcierge().then(this.changed);
      this.changed();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.connection.isConnected) return;
    this.polling = true;
    try {
      const added = await this.loadEvents(false);
      if (this.state.pane === "schedules") await this.loadSchedules();
      if (added || this.state.pane === "schedules") this.changed();
    } finally {
      this.polling = false;
    }
  }

  /**
   * Reads the events since the cursor; says whether any came (a full feed keeps its length as they
   * push the oldest out, so its length does not tell).
   */
  private async loadEvents(first: boolean): Promise<boolean> {
    if (!first && this.state.events === null) return false;
    try {
      const args = this.cursor === undefined ? { limit: 50 } : { after: this.cursor };
      const result = (await this.connection.call("events", args)) as { events?: unknown; cursor?: unknown };
      const items = listOf(result, "events").map(feedItem);
      const kept = first || this.state.events === null ? items : [...this.state.events, ...items];
      this.state.events = kept.slice(-FEED_KEPT);
      if (result?.cursor !== undefined) this.cursor = result.cursor;
      return items.length > 0;
    } catch (error) {
      if (isMissingOp(error)) this.state.events = null;
      return false;
    }
  }

  private async loadBoard(): Promise<void> {
    try {
      const tasks = listOf(await this.connection.call("task", { action: "list" }), "tasks").map(boardTask);
      this.state.board = { counts: this.state.board?.counts ?? countTasks(tasks), tasks };
    } catch (error) {
      if (isMissingOp(error)) this.state.board = null;
    }
  }

  private async loadConcierge(): Promise<void> {
    try {
      const status = await this.connection.call("concierge", { action: "status" });
      const { orders } = await this.connection.call("concierge-order", { action: "list" });
      this.state.concierge = { status, said: this.state.concierge?.said ?? null, orders };
    } catch (error) {
      if (isMissingOp(error)) this.state.concierge = null;
    }
  }

  private async loadSchedules(): Promise<void> {
    try {
      this.state.schedules = listOf(await this.connection.call("schedules", {}), "schedules").map(
        scheduleItem,
      );
    } catch (error) {
      if (isMissingOp(error)) this.state.schedules = null;
    }
  }
}
