/**
 * One job in the host: its pseudo-terminal, its screen model fed by the output as it arrives, its
 * output log, and who watches its raw output. An ended job keeps its last screen until forgotten.
 */
import { type IPty, spawn } from "@lydell/node-pty";
import serializeModule from "@xterm/addon-serialize";
import xtermHeadless from "@xterm/headless";
import { RoostError } from "../../protocol/errors.js";
import type { HostJobInfo, HostSpawnSpec, ScreenSnapshot } from "./api.js";
import { terminalLogPath } from "./files.js";
import { DEFAULT_LOG_MAX_BYTES, OutputLog } from "./output-log.js";
import { readToTheEnd } from "./pty-read-out.js";
import { sameScreen, snapshotOf } from "./screen.js";
import type { Paced } from "./screen-pace.js";

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeModule;

/**
 * Flow control: past this much output not yet taken in by the screen model, the pty is no longer
 * read (the program blocks on its writes, as on a slow real terminal) until the model is down to
 * the low mark. Memory stays bounded however fast a program prints.
 */
const UNPARSED_HIGH_CHARS = 512 * 1024;
const UNPARSED_LOW_CHARS = 64 * 1024;
/** Lines kept above the screen, for replay on attach. */
const SCROLLBACK_LINES = 500;

/** Where a job's events go (the host, which sends them to its connections). */
export interface JobListener {
  /** The screen may have changed: `takeScreen` tells what it shows now. */
  changed(job: HostJob): void;
  /** The process ended and its last output is on the screen. */
  exit(job: HostJob): void;
}

/** A connection that watches a job's raw output. */
export interface OutputWatcher {
  output(id: string, data: string): void;
}

export class HostJob implements Paced {
  readonly id: string;
  readonly pid: number;
  readonly command: string[];
  readonly cwd: string;
  readonly startedAt = Date.now();
  running = true;
  exitCode: number | null = null;
  signal: number | null = null;
  /** Settles when the process has ended. */
  readonly ended: Promise<void>;
  private markEnded!: () => void;

  private readonly pty: IPty;
  private readonly terminal: InstanceType<typeof Terminal>;
  private readonly serializer = new SerializeAddon();
  private readonly log: OutputLog;
  screenToldAt = Number.NEGATIVE_INFINITY;
  private title = "";
  /** When the last output the screen model has taken in came. */
  private lastOutputAt: number;
  private lastScreen: ScreenSnapshot | null = null;
  private unparsedChars = 0;
  /** The output received and not yet taken in by the screen model, oldest first. */
  private readonly unparsed: string[] = [];
  private paused = false;
  /** Forgotten: parse callbacks still queued in the screen model must not touch it any more. */
  private disposed = false;
  /** Each watcher, with the output it is owed while its replay is on the way (null once live). */
  private readonly watchers = new Map<OutputWatcher, string[] | null>();

  constructor(
    spec: HostSpawnSpec,
    private readonly listener: JobListener,
  ) {
    this.id = spec.id;
    this.command = [...spec.command];
    this.cwd = spec.cwd;
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
    this.lastOutputAt = this.startedAt;
    this.terminal = new Terminal({
      cols: spec.cols,
      rows: spec.rows,
      scrollback: SCROLLBACK_LINES,
      allowProposedApi: true,
    });
    this.terminal.loadAddon(this.serializer);
    this.terminal.onTitleChange((title) => {
      this.title = title;
    });
    this.log = new OutputLog(terminalLogPath(spec.dir), spec.logMaxBytes ?? DEFAULT_LOG_MAX_BYTES);
    const [file, ...args] = spec.command;
    // forkpty makes the child a session leader: its pid is its process group, which kill() signals.
    this.pty = spawn(file!, args, {
      name: spec.env.TERM ?? "xterm-256color",
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env: spec.env,
    });
    this.pid = this.pty.pid;
    this.pty.onData((data) => this.received(data));
    this.pty.onExit(({ exitCode, signal }) => this.exited(exitCode, signal ?? 0));
    // What a program prints just before it exits is kept, however busy the host is then.
    readToTheEnd(
      this.pty,
      (data) => this.received(data),
      () => this.resumeReading(),
    );
  }

  info(): HostJobInfo {
    return {
      id: this.id,
      pid: this.pid,
      running: this.running,
      exitCode: this.exitCode,
      signal: this.signal,
      startedAt: this.startedAt,
      command: this.command,
      cwd: this.cwd,
    };
  }

  write(data: string): void {
    this.mustRun();
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this.mustRun();
    this.pty.resize(cols, rows);
    this.terminal.resize(cols, rows);
    this.listener.changed(this);
  }

  /** Signals the job's process group; an ended job is left alone. */
  kill(signal: NodeJS.Signals): void {
    if (!this.running) return;
    try {
      process.kill(-this.pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
  }

  async screen(): Promise<ScreenSnapshot> {
    await this.parsed();
    return this.snapshot();
  }

  async serialize(): Promise<string> {
    await this.parsed();
    return this.serializer.serialize();
  }

  /**
   * Starts sending the job's output to `watcher`, held back until `release(watcher)`; answers the
   * screen as it is just before the first output the watcher gets.
   */
  async watch(watcher: OutputWatcher): Promise<string> {
    // The screen model takes output in a while after it came: what it has not yet is not on the
    // screen replayed, so it is held for the watcher with what comes later.
    if (!this.watchers.has(watcher)) this.watchers.set(watcher, [...this.unparsed]);
    return this.serializer.serialize();
  }

  /** Sends a new watcher what was held for it since its replay, then the output as it comes. */
  release(watcher: OutputWatcher): void {
    const held = this.watchers.get(watcher);
    if (!held) return;
    this.watchers.set(watcher, null);
    if (held.length > 0) watcher.output(this.id, held.join(""));
  }

  unwatch(watcher: OutputWatcher): void {
    this.watchers.delete(watcher);
  }

  /** Lets go of everything the job holds; its process must have ended. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.watchers.clear();
    this.log.end();
    this.terminal.dispose();
  }

  private received(data: string): void {
    const at = Date.now();
    this.unparsedChars += data.length;
    this.unparsed.push(data);
    this.terminal.write(data, () => this.parsedChunk(data.length, at));
    if (!this.paused && this.unparsedChars > UNPARSED_HIGH_CHARS) {
      this.paused = true;
      this.pty.pause();
    }
    this.log.append(data);
    for (const [watcher, held] of this.watchers) {
      if (held) held.push(data);
      else watcher.output(this.id, data);
    }
  }

  private parsedChunk(chars: number, receivedAt: number): void {
    this.unparsedChars -= chars;
    this.unparsed.shift();
    if (this.paused && this.unparsedChars < UNPARSED_LOW_CHARS) this.resumeReading();
    if (this.disposed) return;
    this.lastOutputAt = receivedAt;
    this.listener.changed(this);
  }

  private resumeReading(): void {
    this.paused = false;
    this.pty.resume();
  }

  private exited(exitCode: number, signal: number): void {
    this.running = false;
    this.markEnded();
    this.exitCode = signal ? null : exitCode;
    this.signal = signal || null;
    // Nothing more will be printed: the log's file is let go now, not when the job is forgotten.
    this.log.close();
    this.terminal.write("", () => {
      if (!this.disposed) this.listener.exit(this);
    });
  }

  /** The screen as it is now and the one the last call answered, unless they are the same (then null). */
  takeScreen(): { screen: ScreenSnapshot; before: ScreenSnapshot | null } | null {
    if (this.disposed) return null;
    const screen = this.snapshot();
    const before = this.lastScreen;
    if (before && sameScreen(before, screen)) return null;
    this.lastScreen = screen;
    return { screen, before };
  }

  private snapshot(): ScreenSnapshot {
    return snapshotOf(this.terminal, this.title, this.lastOutputAt);
  }

  /** Resolves once the screen model has taken in every output received so far. */
  private parsed(): Promise<void> {
    return new Promise((resolve) => this.terminal.write("", resolve));
  }

  private mustRun(): void {
    if (!this.running) throw new RoostError("conflict", `job ${this.id} has ended`);
  }
}
