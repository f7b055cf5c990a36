import { feedItem } from "../../hub/optional-ops.js";
import type { FeedEvent } from "../../protocol/feed.js";
import { WEB_FEED_KEPT } from "../../protocol/web-feeds.js";
import { clockTime } from "./clock-time.js";
import { el } from "./dom.js";

/**
 * The events feed, newest first, as it happens: each event's time, who did it, what kind of thing
 * (the hub's words: `task done`, `reply typed`) and its text. The newest hundred are kept; each new
 * one is put at the top, and the oldest taken from the bottom, without touching the others.
 */
export class EventsView {
  readonly element = el("section", { class: "events-view" });
  private readonly list = el("ol", { class: "feed" });
  private readonly empty = el(
    "p",
    { class: "feed-empty" },
    "Nothing has happened yet: dispatch a job or reply to one, and it shows here.",
  );

  constructor() {
    this.element.append(el("h2", {}, "Events"), this.empty, this.list);
  }

  /** Events oldest first: in place of those shown (`reset`), or after them. */
  receive(events: FeedEvent[], reset: boolean): void {
    if (reset) this.list.replaceChildren();
    for (const event of events) this.list.prepend(feedLine(event));
    while (this.list.childElementCount > WEB_FEED_KEPT) this.list.lastElementChild?.remove();
    this.empty.hidden = this.list.childElementCount > 0;
  }
}

function feedLine(event: FeedEvent): HTMLLIElement {
  const item = feedItem(event as never);
  return el(
    "li",
    { class: "feed-item", data: { id: String(event.id) } },
    el("time", { class: "feed-at" }, item.at ? clockTime(item.at) : ""),
    el("span", { class: "feed-who" }, item.who),
    el("span", { class: "feed-kind" }, item.kind),
    el("span", { class: "feed-text" }, item.text),
  );
}
