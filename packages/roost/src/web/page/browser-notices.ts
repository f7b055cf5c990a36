import { type NotifyKind, notifyEvent, notifyKindOf } from "../../protocol/notify.js";
import type { JobRow } from "../../protocol/rows.js";
import { button } from "./dom.js";

/** How long a row holds its moment before the page tells of it (as the daemon's notify command). */
const HOLD_MS = 1000;

const TITLES: Record<NotifyKind, string> = { waiting: "waits for you", failed: "failed", done: "is done" };

/**
 * The browser's notifications, once the person allows them: a session that starts waiting, fails
 * or finishes, each told of once per transition after holding it a moment. Rows as first sent are
 * no news.
 */
export class BrowserNotices {
  private readonly kinds = new Map<string, NotifyKind | null>();
  private readonly timers = new Map<string, number>();
  /** The button that asks the browser's permission, shown while it has not been given or refused. */
  readonly ask = button("Notify me", () => void this.requestPermission(), "notify-me");

  constructor() {
    this.showAsk();
  }

  /** Every row, after a (re)connection: taken as they stand. */
  seen(rows: JobRow[]): void {
    this.kinds.clear();
    for (const row of rows) this.kinds.set(row.id, notifyKindOf(row));
  }

  changed(row: JobRow, current: () => JobRow | undefined): void {
    const kind = notifyKindOf(row);
    if (this.kinds.get(row.id) === kind) return;
    this.kinds.set(row.id, kind);
    clearTimeout(this.timers.get(row.id));
    if (kind === null) return;
    this.timers.set(
      row.id,
      window.setTimeout(() => {
        const now = current();
        if (now && this.kinds.get(row.id) === kind) this.show(now, kind);
      }, HOLD_MS),
    );
  }

  private show(row: JobRow, kind: NotifyKind): void {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    const event = notifyEvent(row, kind, new Date().toISOString());
    new Notification(`${row.name} ${TITLES[kind]}`, { body: event.text, tag: `${row.id}-${kind}` });
  }

  private async requestPermission(): Promise<void> {
    if ("Notification" in window) await Notification.requestPermission();
    this.showAsk();
  }

  private showAsk(): void {
    this.ask.hidden = !("Notification" in window) || Notification.permission !== "default";
  }
}
