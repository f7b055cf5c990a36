import { type EventsResult, type FeedEvent, terminalSafe, terminalSafeJson } from "../../protocol/index.js";
import type { Command } from "../command.js";
import { followPolling } from "../follow.js";
import { hangingLines } from "../format.js";

/**
 * One event: time, kind and why (once when they are the same word), and what happened, made safe
 * for the terminal; a text of several lines (a question) goes on under its first, indented to it.
 */
export function eventLine(event: FeedEvent): string {
  const time = terminalSafe(event.at.slice(11, 19));
  const label = terminalSafe(event.why === event.kind ? event.kind : `${event.kind}/${event.why}`);
  return hangingLines(`${time}  ${label.padEnd(20)}  `, event.text);
}

export const events: Command = {
  name: "events",
  usage: "events [--follow] [--id ID] [--limit N] [--json]",
  summary:
    "What happened across the jobs: starts, state changes, replies, messages, reports, notices, restarts, removals, budgets passed.",
  positionals: [0, 0],
  options: { follow: { type: "boolean", short: "f" }, id: { type: "string" }, limit: { type: "string" } },
  run: async ({ values, json, home, client, print }) => {
    const c = await client();
    const limit = typeof values.limit === "string" ? Number(values.limit) : undefined;
    const id = typeof values.id === "string" ? values.id : undefined;
    const first: EventsResult = await c.call("events", {
      ...(limit !== undefined ? { limit } : {}),
      ...(id !== undefined ? { id } : {}),
    });
    if (!values.follow) {
      print(first.events.length ? first.events.map(eventLine).join("\n") : "no events", first);
      return 0;
    }
    // Followed: one line per event (a JSON object per line with --json) until interrupted.
    const show = (list: FeedEvent[]) => {
      for (const e of list) process.stdout.write(`${json ? terminalSafeJson(e) : eventLine(e)}\n`);
    };
    show(first.events);
    let cursor = first.cursor;
    return followPolling("events", home, c, async (now) => {
      const next: EventsResult = await now.call("events", {
        after: cursor,
        ...(id !== undefined ? { id } : {}),
      });
      show(next.events);
      cursor = next.cursor;
    });
  },
};
