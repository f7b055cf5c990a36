import { DaemonClient } from "../client/daemon-client.js";
import { HubConnection } from "../hub/hub-connection.js";
import type { JobRow } from "../protocol/rows.js";
import type { WebMessage } from "../protocol/web.js";
import { WebFeeds } from "./web-feeds.js";

/**
 * The fleet as `roost web` keeps it: one daemon subscription (the hub's connection, reconnecting
 * when the daemon goes away), the last rows for a page that connects, and each change passed to
 * every open page.
 */
export class WebFleet {
  readonly rows = new Map<string, JobRow>();
  status: Extract<WebMessage, { type: "daemon" }> = { type: "daemon", status: "connecting", detail: null };
  readonly connection: HubConnection;
  /** The board, the events feed, the concierge's line. */
  private readonly feeds: WebFeeds;
  private readonly pages = new Set<(message: WebMessage) => void>();

  constructor(
    private readonly home: string,
    private readonly socketPath?: string,
  ) {
    this.connection = new HubConnection(
      { home, socketPath, startDaemon: true },
      {
        status: (status, detail) => {
          this.status = { type: "daemon", status, detail };
          this.send(this.status);
        },
        rows: (rows) => {
          this.rows.clear();
          for (const row of rows) this.rows.set(row.id, row);
          this.send({ type: "rows", rows });
        },
        row: (row) => {
          this.rows.set(row.id, row);
          this.send({ type: "row", row });
        },
        rowRemoved: (id) => {
          this.rows.delete(id);
          this.send({ type: "row-removed", id });
        },
        event: (event) => this.feeds.event(event),
        connected: () => void this.feeds.connected(),
      },
    );
    this.feeds = new WebFeeds(this.connection, (message) => this.send(message));
  }

  start(): Promise<void> {
    return this.connection.start();
  }

  /** A daemon connection besides the fleet's (a page's attached terminals). */
  connect(): Promise<DaemonClient> {
    return DaemonClient.connect({ home: this.home, socketPath: this.socketPath });
  }

  /** Adds a page: it gets the rows and the daemon's state now, then every change. */
  join(page: (message: WebMessage) => void): () => void {
    page({ type: "rows", rows: [...this.rows.values()] });
    page(this.status);
    for (const message of this.feeds.current()) page(message);
    this.pages.add(page);
    return () => this.pages.delete(page);
  }

  close(): void {
    this.connection.close();
    this.feeds.close();
    this.pages.clear();
  }

  private send(message: WebMessage): void {
    for (const page of this.pages) page(message);
  }
}
