import { DaemonClient, isDisconnected } from "../../client/daemon-client.js";
import { type EventsResult, type FeedEvent, terminalSafe, terminalSafeJson } from "../../protocol/index.js";
import type { Command } from "../command.js";

/** How often `--follow` asks for what is new. */
const FOLLOW_POLL_MS = 500;

/**
 * One event: time, kind and why (once when they are the same word), and what happened, made safe
 * for the terminal; a text of several lines (a question) goes on under its first, indented to it.
 */
export function eventLine(event: FeedEvent): string {
  const time = terminalSafe(event.at.slice(11, 19));
  const label = terminalSafe(event.why === event.kind ? event.kind : `${event.kind}/${event.why}`);
  const head = `${time}  ${label.padEnd(20)}  `;
  const indent = " ".repeat([...head].length);
  return head + terminalSafe(event.text, { lines: true }).split("\n").join(`\n${indent}`);
}

export const events: Command = {
  name: "events",
  usage: "events [--follow] [--id ID] [--limit N] [--json]",
  summary:
    "What happened across the jobs: starts, state changes, replies, messages, reports, notices, restarts, removals, budgets passed.",
  positionals: [0, 0],
  options: { follow: { type: "boolean", short: "f" }, id: { type: "string" }, limit: { type: "string" } },
  run: async ({ values, json, home, client, print }) => {
    let c = await client();
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
    let away = false;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      try {
        if (away) {
          const back = await DaemonClient.connect({ home });
          c.close();
          c = back;
        }
        const next: EventsResult = await c.call("events", {
          after: cursor,
          ...(id !== undefined ? { id } : {}),
        });
        if (away) process.stderr.write("roost events: the daemon is back; following on\n");
        away = false;
        show(next.events);
        cursor = next.cursor;
      } catch (error) {
        if (!isDisconnected(error)) throw error;
        // The daemon went away (a restart, an upgrade): wait for it, as the hub does.
        if (!away) process.stderr.write("roost events: the daemon is gone; waiting for it (Ctrl-C stops)\n");
        away = true;
      }
    }
  },
};
