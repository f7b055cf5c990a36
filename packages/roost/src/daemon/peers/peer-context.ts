import type { Dispatcher } from "../dispatch/dispatcher.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { ForegroundPeers } from "./foreground.js";
import type { PeerSettings } from "./user-config.js";

/** What the agent-to-agent parts share. */
export interface PeerContext {
  state: DaemonState;
  supervisor: Supervisor;
  dispatcher: Dispatcher;
  feed: EventsFeed;
  foreground: ForegroundPeers;
  /** The clock the windows and the watches' expiry run on (a test's clock file, else the system's). */
  now(): number;
  /** The user's roost.json, read on each use. */
  settings(): PeerSettings;
}

/** A line of a message for the feed: its start, on one line. */
export function feedLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
