/**
 * `roost attach ID`: the job's terminal in this one. The screen as it is now is replayed, then the
 * terminal is live: keys go to the program, a resize reaches it (SIGWINCH), its output comes here.
 * Ctrl-] detaches and leaves the job running. A job that ended shows its last screen and says so.
 * If the daemon goes away meanwhile, attach waits for it (starting it again) and carries on.
 * `attachTerminal` is the same for a caller with streams of its own (the hub).
 */
import { DaemonClient, isDisconnected } from "../client/daemon-client.js";
import {
  type AttachResult,
  DETACH_KEY,
  DETACH_KEY_NAME,
  type EventMessage,
  RoostError,
  terminalSafe,
} from "../protocol/index.js";
import { blankScreenReason, leaveBanner } from "./attach-notes.js";
import type { Command } from "./command.js";

export interface AttachStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; isRaw?: boolean; setRawMode?(raw: boolean): unknown };
  output: NodeJS.WritableStream & { columns?: number; rows?: number; isTTY?: boolean };
}

export interface AttachOptions {
  /** A new connection once the daemon is back; without it, losing the daemon ends the attach. */
  reconnect?: () => Promise<DaemonClient>;
  /** How long to wait for the daemon to come back (default 30 s). */
  reconnectForMs?: number;
}

/**
 * How an attach ended: the user detached, the job ended while attached, the daemon went away for
 * good or shut down, or the job had ended already and its last screen was shown until a key.
 */
export type AttachOutcome = "detached" | "ended" | "lost" | "shutdown" | "last-screen";

/**
 * The job's screen is drawn on the alternate screen, cleared first, as tmux does: nothing of the
 * shell's screen shows under it, and leaving it gives the shell's screen back as it was.
 */
const OWN_SCREEN = "\x1b[?1049h\x1b[H\x1b[2J";
/** Resets the modes a program may have set (mouse, paste, styles, a hidden cursor). */
const RESET_PROGRAM_MODES = "\x1b[0m\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?25h";
/** Those, and back to the shell's screen. */
const RESET_MODES = `${RESET_PROGRAM_MODES}\x1b[?1049l`;
const CLEAR = "\x1b[H\x1b[2J\x1b[3J";
const RECONNECT_WAIT_MS = 250;

class AttachSession {
  private client: DaemonClient;
  /** The connection attach was given (its owner closes it); one made here is closed here. */
  private readonly given: DaemonClient;
  private id: string;
  private name = "";
  private keyboard = false;
  private finished = false;
  private connected = false;
  /** The daemon said it shuts down with its jobs. */
  private shutdownAll = false;
  private titled = false;
  private typing: Promise<unknown> = Promise.resolve();
  private readonly wasRaw: boolean;
  private resolve: (outcome: AttachOutcome) => void = () => {};
  /**
   * The daemon's events held until the screen they follow is drawn (null once live): an event can
   * come in the same read as the attach's answer, ahead of the code that awaits that answer.
   */
  private held: EventMessage[] | null = null;

  constructor(
    client: DaemonClient,
    id: string,
    private readonly streams: AttachStreams,
    private readonly options: AttachOptions,
  ) {
    this.client = client;
    this.given = client;
    this.id = id;
    this.wasRaw = streams.input.isRaw === true;
  }

  async run(): Promise<AttachOutcome> {
    const result = await this.attach();
    if (result.ended) return this.showEnded(result);
    // Said on the shell's screen (it shows again on detach) and in the title while attached.
    this.streams.output.write(
      `[roost] attached to ${this.name}; ${DETACH_KEY_NAME} detaches` +
        (this.keyboard ? "" : " (watching: another attached terminal has the keyboard)") +
        "\r\n",
    );
    // The title is pushed first and popped on the way out (xterm's title stack).
    this.streams.output.write(`\x1b[22;0t\x1b]2;roost: ${this.name} · ${DETACH_KEY_NAME} detaches\x07`);
    this.titled = true;
    this.drawScreen(OWN_SCREEN, result);
    const { input, output } = this.streams;
    const done = new Promise<AttachOutcome>((resolve) => (this.resolve = resolve));
    output.on("resize", this.resize);
    if (input.isTTY && input.setRawMode) input.setRawMode(true);
    input.on("data", this.onKeys);
    input.resume();
    this.release();
    return done;
  }

  /** The events held while the screen was drawn, in the order they came; then live. */
  private release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.onEvent(event);
  }

  /**
   * The job's screen after `clear`, with on it how to leave and why a protocol agent's is blank: in
   * one write, so that the terminal never shows the screen without them.
   */
  private drawScreen(clear: string, result: AttachResult): void {
    const blank = blankScreenReason(result, this.name);
    this.streams.output.write(
      clear +
        result.screen +
        (blank === null ? "" : `\x1b[3;1H[roost] ${blank}\r\n`) +
        leaveBanner(this.name, this.streams.output.columns),
    );
  }

  private async attach(): Promise<AttachResult> {
    const { output } = this.streams;
    const size = output.columns && output.rows ? { cols: output.columns, rows: output.rows } : {};
    this.held = [];
    this.client.on("event", this.onEvent);
    let result: AttachResult;
    try {
      result = (await this.client.call("attach", { id: this.id, ...size })) as AttachResult;
    } catch (err) {
      this.client.off("event", this.onEvent);
      throw err;
    }
    // Later attaches (after the daemon came back) go by id: a name may have changed meanwhile.
    this.id = result.id;
    // Its name goes into the window's title and the notes: made safe, it cannot end the title early.
    this.name = terminalSafe(`${result.name} (${result.id})`);
    this.keyboard = result.keyboard;
    if (result.ended) this.client.off("event", this.onEvent);
    else {
      this.client.on("close", this.onClose);
      this.connected = true;
    }
    return result;
  }

  /**
   * A job that ended: its last screen on a screen of its own, until a key (when there is a keyboard);
   * then the shell's screen again, with what it was.
   */
  private async showEnded(result: AttachResult): Promise<AttachOutcome> {
    const { input, output } = this.streams;
    const how = result.exitCode === null ? "" : `, exit code ${result.exitCode}`;
    const what =
      result.screen === ""
        ? `${this.name} is ${result.lifecycle}${how}; no screen of it was kept`
        : `${this.name} is ${result.lifecycle}${how}: this is its last screen`;
    if (input.isTTY && input.setRawMode && result.screen !== "") {
      output.write(OWN_SCREEN + result.screen + RESET_PROGRAM_MODES);
      this.note(`${what}; press a key to leave it`);
      input.setRawMode(true);
      input.resume();
      await new Promise((resolve) => input.once("data", resolve));
      input.setRawMode(this.wasRaw);
      input.pause();
      output.write(RESET_MODES);
    } else {
      output.write(result.screen + RESET_MODES);
    }
    this.note(what);
    return "last-screen";
  }

  private note(text: string): void {
    this.streams.output.write(`\r\n[roost] ${text}\r\n`);
  }

  /** Keys go out one request after another, in order. */
  private type(data: string): void {
    if (!this.keyboard || !this.connected || data === "") return;
    const client = this.client;
    this.typing = this.typing.then(() => client.call("attach-input", { id: this.id, data }).catch(() => {}));
  }

  private readonly resize = () => {
    const { output } = this.streams;
    if (!this.keyboard || !this.connected || !output.columns || !output.rows) return;
    void this.client
      .call("attach-resize", { id: this.id, cols: output.columns, rows: output.rows })
      .catch(() => {});
  };

  private readonly onKeys = (chunk: Buffer | string) => {
    const data = chunk.toString();
    const at = data.indexOf(DETACH_KEY);
    if (at === -1) return this.type(data);
    this.type(data.slice(0, at));
    void this.typing.then(() => this.finish("detached"));
  };

  private readonly onEvent = (event: EventMessage) => {
    if (this.held) {
      this.held.push(event);
      return;
    }
    if (event.id !== this.id) return;
    if (event.event === "terminal-output") this.streams.output.write(String(event.data));
    else if (event.event === "terminal-keyboard") {
      this.keyboard = true;
      this.resize();
      this.note("you have the keyboard now");
    } else if (event.event === "terminal-end") this.finish("ended", event.exitCode as number | null);
    else if (event.event === "terminal-shutdown") {
      this.shutdownAll = event.all === true;
      this.finish("shutdown");
    }
  };

  private readonly onClose = () => {
    this.connected = false;
    this.client.off("event", this.onEvent).off("close", this.onClose);
    if (this.finished) return;
    if (!this.options.reconnect) return this.finish("lost");
    void this.comeBack(this.options.reconnect);
  };

  /** The daemon went away: wait for it, attach again and redraw (the job ran on in the host). */
  private async comeBack(reconnect: () => Promise<DaemonClient>): Promise<void> {
    this.note(
      `the daemon went away; ${this.name} keeps running. Waiting for the daemon (${DETACH_KEY_NAME} gives up)`,
    );
    const deadline = Date.now() + (this.options.reconnectForMs ?? 30_000);
    while (!this.finished && Date.now() < deadline) {
      try {
        this.client = await reconnect();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_WAIT_MS));
        continue;
      }
      if (this.finished) return this.client.close();
      try {
        const result = await this.attach();
        if (result.ended) {
          this.finish("ended", result.exitCode);
          return;
        }
        this.drawScreen(CLEAR, result);
        this.release();
        return;
      } catch (err) {
        this.client.close();
        // A daemon that is still starting may drop a connection: try again until the deadline.
        if (!isDisconnected(err)) {
          this.note(`attach again failed: ${(err as Error).message}`);
          this.finish("lost");
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_WAIT_MS));
      }
    }
    this.finish("lost");
  }

  private finish(outcome: AttachOutcome, exitCode: number | null = null): void {
    if (this.finished) return;
    this.finished = true;
    const { input, output } = this.streams;
    input.off("data", this.onKeys);
    output.off("resize", this.resize);
    this.client.off("event", this.onEvent).off("close", this.onClose);
    if (input.isTTY && input.setRawMode) input.setRawMode(this.wasRaw);
    input.pause();
    output.write(RESET_MODES + (this.titled ? "\x1b[23;0t" : ""));
    const client = this.client;
    const detached =
      outcome === "detached" && this.connected
        ? client.call("detach", { id: this.id }).catch(() => {})
        : Promise.resolve();
    if (client !== this.given) void detached.then(() => client.close());
    if (outcome === "detached") {
      this.note(`detached from ${this.name}; it keeps running (roost attach ${this.id} to come back)`);
    } else if (outcome === "ended") {
      this.note(`${this.name} ended${exitCode === null ? "" : ` (exit code ${exitCode})`}`);
    } else if (outcome === "shutdown") {
      this.note(
        this.shutdownAll
          ? `the daemon was shut down with its jobs; ${this.name} ended`
          : `the daemon was shut down; ${this.name} keeps running: roost attach ${this.id} starts the daemon again`,
      );
    } else {
      this.note(`the daemon is gone; ${this.name} keeps running: roost attach ${this.id}`);
    }
    this.resolve(outcome);
  }
}

export function attachTerminal(
  client: DaemonClient,
  id: string,
  streams: AttachStreams = { input: process.stdin, output: process.stdout },
  options: AttachOptions = {},
): Promise<AttachOutcome> {
  return new AttachSession(client, id, streams, options).run();
}

export const attach: Command = {
  name: "attach",
  usage: "attach ID|NAME",
  summary: `Takes a job's terminal here: its screen, then live keys and output. ${DETACH_KEY_NAME} detaches; the job keeps running.`,
  positionals: [1, 1],
  run: async ({ positionals, client, home }) => {
    if (!process.stdin.isTTY)
      throw new RoostError("bad_request", "attach needs a terminal on stdin (run it from a shell)");
    const reconnect = () => DaemonClient.connect({ home, start: true });
    const outcome = await attachTerminal(await client(), positionals[0]!, undefined, { reconnect });
    return outcome === "lost" ? 1 : 0;
  },
};
