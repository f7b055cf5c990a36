/**
 * `roost attach`'s wire: a controller (the CLI, the hub) takes a job's terminal. `attach` answers
 * the screen as it is (escape sequences that redraw it) and then the job's output comes as
 * `terminal-output` events on that connection, until `detach`, the job's end (`terminal-end`) or
 * the connection's. Several connections may watch one job; the first attached holds the keyboard
 * (its keys and its size reach the program; the others' keys are refused with `locked`) and when it
 * leaves, the next in line takes it over (`terminal-keyboard`).
 */
import { type Static, Type } from "typebox";
import { JobRef, Text } from "./fields.js";
import { LIMITS, TERMINAL_SIZE } from "./limits.js";
import type { JobKind, Lifecycle } from "./rows.js";

/** The key that detaches (Ctrl-], as telnet's): terminal agents hardly ever need it. */
export const DETACH_KEY = "\x1d";
export const DETACH_KEY_NAME = "Ctrl-]";

const Cols = Type.Integer({ minimum: TERMINAL_SIZE.minimum, maximum: TERMINAL_SIZE.maxCols });
const Rows = Type.Integer({ minimum: TERMINAL_SIZE.minimum, maximum: TERMINAL_SIZE.maxRows });

export const AttachArgs = Type.Object({
  /** A job id or a unique name. */
  id: JobRef,
  /** The attaching terminal's size: the program takes it while this connection holds the keyboard. */
  cols: Type.Optional(Cols),
  rows: Type.Optional(Rows),
});
export type AttachArgs = Static<typeof AttachArgs>;

export interface AttachResult {
  id: string;
  name: string;
  /** A protocol agent's terminal shows only what it prints (often nothing); a terminal agent's is its screen. */
  kind: JobKind;
  /** The job is not running: `screen` is its last one (empty when none was kept), nothing follows. */
  ended: boolean;
  lifecycle: Lifecycle;
  exitCode: number | null;
  screen: string;
  /** Whether this connection's keys reach the program (else it watches). */
  keyboard: boolean;
}

export const AttachInputArgs = Type.Object({
  id: JobRef,
  /** Keys as the terminal sends them. */
  data: Text({ maxLength: LIMITS.replyText }),
});
export type AttachInputArgs = Static<typeof AttachInputArgs>;

export const AttachResizeArgs = Type.Object({ id: JobRef, cols: Cols, rows: Rows });
export type AttachResizeArgs = Static<typeof AttachResizeArgs>;

export interface TerminalOutputEvent {
  event: "terminal-output";
  id: string;
  data: string;
}

/** The attached job ended (or the daemon lost its terminal): nothing more comes for it. */
export interface TerminalEndEvent {
  event: "terminal-end";
  id: string;
  exitCode: number | null;
  signal: number | null;
}

/** This connection holds the keyboard now (the one that held it left). */
export interface TerminalKeyboardEvent {
  event: "terminal-keyboard";
  id: string;
}

/**
 * The daemon is shutting down (`roost shutdown`): an attached terminal ends its attach instead of
 * starting the daemon again. `all`: the jobs end too.
 */
export interface TerminalShutdownEvent {
  event: "terminal-shutdown";
  id: string;
  all: boolean;
}

export type AttachEvent =
  | TerminalOutputEvent
  | TerminalEndEvent
  | TerminalKeyboardEvent
  | TerminalShutdownEvent;

const ATTACH_EVENT_NAMES: ReadonlySet<string> = new Set<AttachEvent["event"]>([
  "terminal-output",
  "terminal-end",
  "terminal-keyboard",
  "terminal-shutdown",
]);

/** Whether an event from the daemon is one of an attached terminal's. */
export const isAttachEvent = (event: { event: string }): event is AttachEvent =>
  ATTACH_EVENT_NAMES.has(event.event);
