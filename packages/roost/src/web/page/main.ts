import { replyOutcome } from "../../hub/reply-outcome.js";
import { isWaiting, STATE_GROUPS } from "../../hub/row-look.js";
import type { JobRow } from "../../protocol/rows.js";
import type { WebMessage } from "../../protocol/web.js";
import { BrowserNotices } from "./browser-notices.js";
import { DispatchForm } from "./dispatch-form.js";
import { el } from "./dom.js";
import { FleetFeeds } from "./fleet-feeds.js";
import { orderedRows, type StateFilter } from "./fleet-list.js";
import { Live } from "./live.js";
import { RowListView } from "./row-list-view.js";
import { sessionOps } from "./session-ops.js";
import { SessionView } from "./session-view.js";
import { TerminalView } from "./terminal-view.js";

/** The least time between two descriptions of the session shown, as the hub's details. */
const DESCRIBE_EVERY_MS = 500;

const rows = new Map<string, JobRow>();
let daemon: Extract<WebMessage, { type: "daemon" }>["status"] = "connecting";
let linked = false;
let session: SessionView | null = null;
let terminal: TerminalView | null = null;
let drawPending = false;
let describedAt = 0;
let describeTimer: number | undefined;
/** A change came while a description was on its way. */
let describeAgain = false;

const count = el("span", { class: "count" });
const status = el("span", { class: "status" });
const search = el("input", { class: "search" });
search.type = "search";
search.placeholder = "Filter: name, folder, what it says…";
search.setAttribute("aria-label", "filter");
const stateFilter = el("select", { class: "state-filter" });
stateFilter.setAttribute("aria-label", "state");
for (const value of ["all", ...STATE_GROUPS]) stateFilter.append(el("option", {}, value));
const list = el("ul", { class: "rows" });
const rowList = new RowListView(list, { select, pick: (r, c, q) => void reply(r, c, q) });
const notice = el("p", { class: "notice", title: "how your last action went" });
notice.setAttribute("role", "status");
const main = el("main", {}, list);
const notices = new BrowserNotices();

document.body.append(
  el(
    "header",
    {},
    el("h1", {}, "roost"),
    count,
    status,
    notices.ask,
    el("div", { class: "filters" }, search, stateFilter),
  ),
  notice,
  main,
);
search.addEventListener("input", draw);
stateFilter.addEventListener("change", draw);

const live = new Live(receive, (open) => {
  linked = open;
  if (open) terminal?.resume();
  else terminal?.lost();
  draw();
});
live.start();
const feeds = new FleetFeeds(live, say);
count.before(feeds.tabs);
notice.before(feeds.concierge.element);
main.append(feeds.board.element, feeds.events.element);
const dispatchForm = new DispatchForm(live, say);
const jobOps = sessionOps(live, say);
status.after(dispatchForm.opener);
notice.before(dispatchForm.element);
// The browser's Back (a phone's back gesture) leaves the terminal, as its Detach does.
window.addEventListener("popstate", leaveTerminal);

function receive(message: WebMessage): void {
  // The board, the feed and the concierge's line change nothing in the rows.
  if (feeds.receive(message)) return;
  // A terminal's output comes often and changes nothing else on the page.
  if (message.type === "terminal" || message.type === "terminal-lost") {
    if (message.type === "terminal") terminal?.receive(message.event);
    else terminal?.lost();
    return;
  }
  if (message.type === "rows") {
    rows.clear();
    for (const row of message.rows) rows.set(row.id, row);
    notices.seen(message.rows);
  } else if (message.type === "row") {
    rows.set(message.row.id, message.row);
    notices.changed(message.row, () => rows.get(message.row.id));
  } else if (message.type === "row-removed") rows.delete(message.id);
  else if (message.type === "daemon") {
    daemon = message.status;
    if (daemon === "connected") {
      live.sendUnsent();
      terminal?.resume();
    }
  }
  draw();
}

function say(text: string, tone: "ok" | "warn" | "error" = "ok"): void {
  notice.textContent = text;
  notice.className = `notice ${tone}`;
}

/** Draws at the next frame, once however many changes came before it. */
function draw(): void {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    render();
  });
}

function render(): void {
  const now = Date.now();
  const waiting = [...rows.values()].filter(isWaiting).length;
  document.title = waiting > 0 ? `(${waiting}) roost` : "roost";
  count.textContent = `${rows.size} sessions · ${waiting} waiting`;
  const away = !linked ? "not connected to roost web" : daemon !== "connected" ? "the daemon is away" : "";
  status.textContent = away || "● live";
  status.className = `status${away ? " away" : ""}`;
  const shown = orderedRows(rows.values(), search.value, stateFilter.value as StateFilter);
  rowList.draw(
    shown,
    session?.id ?? null,
    now,
    rows.size === 0 ? "No sessions yet: New… starts one from a profile." : "No session matches the filter.",
  );
  if (session) {
    const row = rows.get(session.id);
    if (row) {
      session.update(row);
      // Under an attached terminal its details are not seen: they are asked for again once it leaves.
      if (!terminal) describeSoon();
    } else close();
  }
}

function select(id: string): void {
  const row = rows.get(id);
  if (!row) return;
  if (session?.id !== id) {
    session?.element.remove();
    session = new SessionView(row, { back: close, reply, held, stop, attach, ...jobOps });
    main.append(session.element);
    document.body.classList.add("with-session");
    describedAt = 0;
  }
  draw();
}

function close(): void {
  session?.element.remove();
  session = null;
  document.body.classList.remove("with-session");
  draw();
}

/** The session's terminal over the page, a step in the browser's history so that Back leaves it. */
function attach(row: JobRow): void {
  leaveTerminal();
  terminal = new TerminalView(row, live, () => {
    leaveTerminal();
    if (history.state?.terminal) history.back();
  });
  document.body.append(terminal.element);
  document.body.classList.add("with-terminal");
  history.pushState({ terminal: row.id }, "");
  terminal.open();
}

function leaveTerminal(): void {
  terminal?.leave();
  terminal = null;
  document.body.classList.remove("with-terminal");
  draw();
}

/**
 * The shown session's details, at most twice a second. A change while a description is on its way
 * asks for another once it is back: the one on its way may have read the screen before the change.
 */
function describeSoon(): void {
  if (!session) return;
  if (describeTimer !== undefined) {
    describeAgain = true;
    return;
  }
  const id = session.id;
  describeAgain = false;
  describeTimer = window.setTimeout(
    async () => {
      describedAt = Date.now();
      try {
        const answer = await live.call("describe", { id, lines: 40 });
        if (answer.ok && session?.id === id) session.details(answer.result as never);
      } finally {
        describeTimer = undefined;
        if (describeAgain) describeSoon();
      }
    },
    Math.max(0, describedAt + DESCRIBE_EVERY_MS - Date.now()),
  );
}

/** A reply, with the question it answers and a request id of its own: sent again after a break, it counts once. */
async function reply(row: JobRow, text: string, question: string | null): Promise<boolean> {
  say(`Sending to ${row.name}…`);
  const answer = await live.call(
    "reply",
    { id: row.id, text, question, requestId: `web-${crypto.randomUUID()}` },
    true,
  );
  if (!answer.ok) {
    say(`Reply to ${row.name} refused: ${answer.code}: ${answer.error}`, "error");
    return false;
  }
  const result = answer.result as Parameters<typeof replyOutcome>[1];
  say(replyOutcome(row.name, result, false, "“Send held reply”"), "held" in result ? "warn" : "ok");
  return true;
}

async function held(row: JobRow, what: "send" | "drop"): Promise<void> {
  const answer = await live.call(
    "reply",
    { id: row.id, held: what, requestId: `web-${crypto.randomUUID()}` },
    true,
  );
  if (!answer.ok) return say(`Held reply of ${row.name}: ${answer.code}: ${answer.error}`, "error");
  say(
    replyOutcome(row.name, answer.result as Parameters<typeof replyOutcome>[1], false, "“Send held reply”"),
  );
}

async function stop(row: JobRow): Promise<void> {
  const answer = await live.call("stop", { id: row.id });
  say(
    answer.ok ? `Stopped ${row.name}.` : `Stop ${row.name} refused: ${answer.code}: ${answer.error}`,
    answer.ok ? "ok" : "error",
  );
}
