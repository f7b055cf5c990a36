import type { Component, Terminal } from "@mariozechner/pi-tui";
import { roostHome, statePaths } from "../home/paths.js";
import type { JobRow } from "../protocol/rows.js";
import { FullScreenTUI } from "./full-screen-tui.js";
import { HubBell } from "./hub-bell.js";
import { HubCommands } from "./hub-commands.js";
import { HubConnection } from "./hub-connection.js";
import { HubFeeds } from "./hub-feeds.js";
import { type HubActions, handleKey } from "./hub-input.js";
import { type HubState, initialHubState, removeRow } from "./hub-state.js";
import { listHeight, overlayScrollMost, renderHub } from "./hub-view.js";
import { AlternateScreenTerminal } from "./screen-terminal.js";
import { TranscriptFollower } from "./transcript-follow.js";

export interface HubOptions {
  /** The roost home (default `$ROOST_HOME`, else `~/.pi/agent`). */
  home?: string;
  socketPath?: string;
  /** Where the hub draws and reads keys (default: this process's terminal, on the alternate screen). */
  terminal?: Terminal;
  /** Start the daemon in the background when none runs. */
  startDaemon?: boolean;
  /**
   * Hands the terminal to a session (`roost attach`) and resolves when the user detaches. The hub
   * stops drawing meanwhile. Without it the attach key says how to attach from a shell.
   */
  attach?: (id: string) => Promise<void>;
  /** The clock the row ages are counted on. */
  now?: () => number;
  /** How often the events feed is polled (ms). */
  feedPollMs?: number;
}

/** The component the TUI draws: the pure view of the state, and the keys into the input handler. */
class HubScreen implements Component {
  constructor(
    private readonly hub: Hub,
    private readonly terminal: Terminal,
    private readonly now: () => number,
  ) {}

  render(width: number): string[] {
    return renderHub(this.hub.state, width, this.terminal.rows, this.now());
  }

  handleInput(data: string): void {
    const pageSize = Math.max(1, listHeight(this.hub.state, this.terminal.rows) - 1);
    const overlayMost = overlayScrollMost(
      this.hub.state,
      this.terminal.columns,
      this.terminal.rows,
      this.now(),
    );
    handleKey(this.hub.state, data, this.hub.actions, pageSize, overlayMost);
  }

  invalidate(): void {}
}

/** The hub: the fleet's rows, live, in a terminal, with every action on them a key away. */
export class Hub {
  readonly state: HubState;
  readonly actions: HubActions;
  /** Resolves when the user quits. */
  readonly finished: Promise<void>;
  private readonly tui: FullScreenTUI;
  private readonly terminal: Terminal;
  private readonly connection: HubConnection;
  private readonly feeds: HubFeeds;
  private readonly transcripts: TranscriptFollower;
  private readonly commands: HubCommands;
  private readonly home: string;
  private readonly bell: HubBell;
  private readonly now: () => number;
  private ticker: NodeJS.Timeout | undefined;
  private attaching = false;
  private stopped = false;
  private quit: () => void = () => {};

  constructor(private readonly options: HubOptions = {}) {
    this.home = options.home ?? roostHome();
    this.now = options.now ?? Date.now;
    this.state = initialHubState();
    this.terminal = options.terminal ?? new AlternateScreenTerminal();
    this.tui = new FullScreenTUI(this.terminal);
    this.bell = new HubBell(statePaths(this.home), this.terminal);
    const changed = () => this.changed();
    this.connection = new HubConnection(
      { home: this.home, socketPath: options.socketPath, startDaemon: options.startDaemon },
      {
        status: (status, detail) => {
          this.state.connection = status;
          this.state.connectionDetail = detail;
          changed();
        },
        rows: (rows) => {
          this.bell.seen(rows);
          for (const row of rows) this.noteChange(row);
          this.state.rows = new Map(rows.map((r) => [r.id, r]));
          changed();
        },
        row: (row) => {
          this.bell.changed(row);
          this.noteChange(row);
          const before = this.state.rows.get(row.id);
          this.state.rows.set(row.id, row);
          // The details shown follow the job, and its diff its worktree.
          const mode = this.state.mode;
          if (mode.kind === "detail" && mode.id === row.id) this.commands.describe(row.id);
          if (
            mode.kind === "diff" &&
            mode.id === row.id &&
            JSON.stringify(before?.worktree) !== JSON.stringify(row.worktree)
          )
            this.commands.diff(row.id);
          changed();
        },
        rowRemoved: (id) => {
          this.bell.removed(id);
          removeRow(this.state, id);
          changed();
        },
        event: (event) => this.feeds.event(event),
        connected: () => void this.feeds.connected(),
      },
    );
    this.feeds = new HubFeeds(this.state, this.connection, changed, options.feedPollMs);
    this.commands = new HubCommands(this.state, this.connection, this.home, changed);
    this.transcripts = new TranscriptFollower(this.state, this.connection, changed);
    this.finished = new Promise((resolve) => (this.quit = resolve));
    const commands = this.commands;
    this.actions = {
      reply: (id, text, steer, start) => commands.reply(id, text, steer, start),
      pick: (id, choice, question) => commands.pick(id, choice, question),
      stop: (id) => commands.stop(id),
      respawn: (id) => commands.respawn(id),
      remove: (id) => commands.remove(id),
      setPinned: (id, pinned) => commands.setPinned(id, pinned),
      rename: (id, name) => commands.rename(id, name),
      move: (id, direction) => commands.move(id, direction),
      loadProfiles: () => commands.loadProfiles(),
      dispatch: (profile, task, name, cwd) => commands.dispatch(profile, task, name, cwd),
      addTask: (title) => commands.addTask(title),
      runSchedule: (id) => commands.runSchedule(id),
      pauseSchedule: (id, paused) => commands.pauseSchedule(id, paused),
      concierge: (args) => commands.concierge(args),
      askConcierge: (text) => commands.askConcierge(text),
      addOrder: (when, text) => commands.addOrder(when, text),
      dropOrder: (id) => commands.dropOrder(id),
      attach: (id) => void this.attach(id),
      describe: (id) => commands.describe(id),
      transcript: (id) => this.transcripts.open(id),
      diff: (id) => commands.diff(id),
      planMerge: (id, plan) => commands.planMerge(id, plan),
      merge: (id) => commands.merge(id),
      redraw: () => this.tui.requestRender(true),
      quit: () => this.quit(),
    };
    this.tui.addChild(new HubScreen(this, this.terminal, this.now));
    this.tui.setFocus(this.tui.children[0]!);
  }

  /** Starts drawing and connects (the first connection may start the daemon). */
  async start(): Promise<void> {
    this.tui.start();
    // The ages in the rows move on with the clock.
    this.ticker = setInterval(() => this.changed(), 1000);
    this.ticker.unref();
    await this.connection.start();
  }

  /** Stops drawing and leaves the terminal as it was; the sessions keep running. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.ticker);
    this.feeds.stop();
    this.transcripts.stop();
    this.connection.close();
    if (!this.attaching) this.tui.stop();
    this.quit();
  }

  /** Draws now instead of at the next frame (tests and benchmarks). */
  requestRender(force = false): void {
    this.tui.requestRender(force);
  }

  /** The age column counts from what the user reads changing, not from a pin, a rename or a reorder. */
  private noteChange(row: JobRow): void {
    const before = this.state.rows.get(row.id);
    if (before && !readsDifferently(before, row)) return;
    // What the status line said of how this row stood is over.
    if (before && this.state.notice?.row === row.id) this.state.notice = null;
    this.state.changedAt.set(row.id, before ? this.now() : Date.parse(row.updatedAt));
  }

  private changed(): void {
    if (!this.stopped && !this.attaching) this.tui.requestRender();
  }

  private async attach(id: string): Promise<void> {
    const attach = this.options.attach;
    const name = this.state.rows.get(id)?.name ?? id;
    if (!attach) {
      this.state.notice = {
        text: `Attaching is not in this build yet: from a shell, roost attach ${id}`,
        tone: "warn",
      };
      this.changed();
      return;
    }
    if (this.attaching) return;
    this.attaching = true;
    this.tui.stop();
    try {
      await attach(id);
      this.state.notice = { text: `Back from ${name}.`, tone: "info" };
    } catch (error) {
      this.state.notice = { text: `Attach to ${name} failed: ${(error as Error).message}`, tone: "error" };
    } finally {
      this.attaching = false;
      if (!this.stopped) {
        this.tui.start();
        this.tui.requestRender(true);
      }
    }
  }
}

/** Whether a row's news changed: its state, what it says or asks, its replies. */
function readsDifferently(a: JobRow, b: JobRow): boolean {
  return (
    a.lifecycle !== b.lifecycle ||
    a.state !== b.state ||
    a.status !== b.status ||
    a.summary !== b.summary ||
    a.question !== b.question ||
    a.error !== b.error ||
    a.tool !== b.tool ||
    a.pending !== b.pending
  );
}

/** Runs the hub until the user quits; the terminal is restored on every way out. */
export async function runHub(options: HubOptions = {}): Promise<void> {
  const hub = new Hub(options);
  const end = () => hub.stop();
  // A bug must not leave the user's terminal raw and on the alternate screen.
  const crash = (error: unknown) => {
    hub.stop();
    process.stderr.write(
      `roost hub: internal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
  const signals = ["SIGTERM", "SIGHUP", "SIGINT"] as const;
  for (const signal of signals) process.once(signal, end);
  process.once("uncaughtException", crash);
  process.once("unhandledRejection", crash);
  try {
    await hub.start();
    await hub.finished;
  } finally {
    hub.stop();
    for (const signal of signals) process.off(signal, end);
    process.off("uncaughtException", crash);
    process.off("unhandledRejection", crash);
  }
}
