/**
 * The process host, as the daemon sees it. A separate, small, long-lived process owns every job's
 * pseudo-terminal and screen model, so agents and their terminals outlive the daemon: the daemon
 * can die, start again, connect to the host and find every job where it was.
 */

export interface HostSpawnSpec {
  /** The job id; the host keys everything by it. */
  id: string;
  /** argv: the program and its arguments. */
  command: string[];
  cwd: string;
  /** The whole environment of the process. */
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** The job's folder: the host keeps the terminal's output log there, capped and rotated. */
  dir: string;
  /** Cap of `terminal.log` in bytes before it is rotated to `terminal.log.1` (default 1 MiB). */
  logMaxBytes?: number;
}

/** What the screen shows now, enough for the daemon to read a row from it. */
export interface ScreenSnapshot {
  /** The visible lines, top to bottom, right-trimmed. */
  lines: string[];
  cursor: { x: number; y: number };
  cols: number;
  rows: number;
  /** The window title the program set, or "". */
  title: string;
  /** Whether the program switched to the alternate screen (a full-screen program). */
  alternate: boolean;
  /** Whether the program enabled bracketed paste (replies are then pasted). */
  bracketedPaste: boolean;
  /** Wall-clock ms of the last output. */
  lastOutputAt: number;
}

export interface HostJobInfo {
  id: string;
  pid: number;
  running: boolean;
  exitCode: number | null;
  signal: number | null;
  startedAt: number;
  /** What it runs and where, as it was spawned (a host older than these fields gives neither). */
  command?: string[];
  cwd?: string;
}

export interface ProcessHostEvents {
  /** The job's process ended. */
  exit: (id: string, exitCode: number | null, signal: number | null) => void;
  /** The screen changed (paced by the host: a first change soon, then at most every SCREEN_PACE_MS). */
  screen: (id: string, screen: ScreenSnapshot) => void;
  /** Raw terminal output, only for jobs this connection watches (see `watch`). */
  output: (id: string, data: string) => void;
  /** The host went away (it died, or the connection to it broke). */
  lost: () => void;
}

export interface ProcessHost {
  /** The host process's pid (to measure it, or to tell hosts apart). */
  readonly hostPid: number;
  /**
   * Whether no host served when this one was connected to, so it was started for the connection:
   * a host that ran before (and every job in it) is gone, as after a reboot.
   */
  readonly fresh: boolean;
  /** Whether the host answers; while it is silent (stopped, wedged), requests are refused `busy`. */
  readonly responsive: boolean;
  spawn(spec: HostSpawnSpec): Promise<HostJobInfo>;
  /** Types raw bytes into the job's terminal; a write with a `key` the host took already is not typed again. */
  write(id: string, data: string, key?: string): Promise<void>;
  resize(id: string, cols: number, rows: number): Promise<void>;
  /** Signals the job's process group (default SIGTERM). */
  kill(id: string, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Every job the host knows, running or ended and not yet forgotten. After (re)connecting, this is
   * how to learn of exits that happened while no one was connected: the host keeps them (and stays
   * up for them) until some connection has heard of them.
   */
  list(): Promise<HostJobInfo[]>;
  screen(id: string): Promise<ScreenSnapshot>;
  /** The screen (and recent scrollback) as escape sequences that redraw it in a terminal. */
  serialize(id: string): Promise<string>;
  /**
   * Starts `output` events for the job on this connection. Resolves with the serialized screen as it
   * was just before the first of those events: replay it, then apply the events (no gap, no repeat).
   */
  watch(id: string): Promise<string>;
  unwatch(id: string): Promise<void>;
  /** Drops an ended job from the host. */
  forget(id: string): Promise<void>;
  /**
   * Drops a job for good, killing it first (SIGKILL) if it runs. Once this resolves the host
   * writes nothing more into the job's folder.
   */
  remove(id: string): Promise<void>;
  on<E extends keyof ProcessHostEvents>(event: E, listener: ProcessHostEvents[E]): void;
  off<E extends keyof ProcessHostEvents>(event: E, listener: ProcessHostEvents[E]): void;
  /** Closes the daemon's connection; the host and its jobs go on. */
  close(): Promise<void>;
  /** Ends every job and the host itself. */
  shutdown(): Promise<void>;
}
