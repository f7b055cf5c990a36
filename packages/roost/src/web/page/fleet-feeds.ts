import type { WebMessage } from "../../protocol/web.js";
import { BoardView } from "./board-view.js";
import { ConciergeLine } from "./concierge-line.js";
import { button, el } from "./dom.js";
import { EventsView } from "./events-view.js";
import type { Live } from "./live.js";
import type { Say } from "./say.js";

/** The page's views: the sessions (the rows), the task board, the events feed. */
const VIEWS = { sessions: "Sessions", board: "Board", events: "Events" } as const;
type PageView = keyof typeof VIEWS;

/**
 * What the page shows besides the rows: the concierge's line under the header, and the board and the
 * events feed, each a view of its own chosen in the header (the body's `data-view` says which, and
 * the style sheet shows it in the rows' place).
 */
export class FleetFeeds {
  readonly tabs = el("nav", { class: "views" });
  readonly concierge: ConciergeLine;
  readonly board: BoardView;
  readonly events = new EventsView();

  constructor(live: Live, say: Say) {
    this.concierge = new ConciergeLine(live, say);
    this.board = new BoardView(live, say);
    for (const [view, label] of Object.entries(VIEWS)) {
      const tab = button(label, () => this.show(view as PageView), `view-tab view-${view}`);
      this.tabs.append(tab);
    }
    this.tabs.setAttribute("aria-label", "views");
    this.show("sessions");
  }

  /** Takes the messages that are its own (and says so); the rows' are the page's. */
  receive(message: WebMessage): boolean {
    if (message.type === "board") this.board.update(message.tasks);
    else if (message.type === "feed") this.events.receive(message.events, message.reset);
    else if (message.type === "concierge") this.concierge.update(message);
    else return false;
    return true;
  }

  private show(view: PageView): void {
    document.body.dataset.view = view;
    for (const tab of this.tabs.children)
      tab.setAttribute("aria-pressed", String(tab.classList.contains(`view-${view}`)));
  }
}
