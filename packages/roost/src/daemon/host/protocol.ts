/**
 * The process host's wire: JSON lines over `<stateDir>/host.sock`, shaped like the daemon's own
 * (request `{id, op, args}`, response `{id, ok, result}` or `{id, ok: false, error, code}`, unasked
 * events `{event, ...}`). Every host message is declared here, once, for the host and its client.
 */
import type { HostJobInfo, HostSpawnSpec, ScreenSnapshot } from "./api.js";

/** Bumped when a message changes shape; a client refuses a host that speaks another version. */
export const HOST_PROTOCOL_VERSION = 2;

/** Exit status of a host that found another host already serving its state folder. */
export const ANOTHER_HOST_EXIT_CODE = 3;

/** One op: what it takes and what it answers. */
interface Op<Args, Result> {
  args: Args;
  result: Result;
}

export interface HostOps {
  /**
   * First request of every connection: who the host is. `screenChanges`: this connection takes a
   * job's screens after its first as `screen-change` events (a host from before them ignores it).
   * `screens: false`: it takes none (an attached terminal's connection, which watches one job's
   * output).
   */
  hello: Op<{ screenChanges?: boolean; screens?: false }, { pid: number; protocol: number }>;
  spawn: Op<HostSpawnSpec, HostJobInfo>;
  /**
   * `key`: a write the host took with this key already (of the last 100 of the job) is not typed
   * again: a daemon that died between typing and keeping that it typed types once all the same.
   */
  write: Op<{ id: string; data: string; key?: string }, null>;
  resize: Op<{ id: string; cols: number; rows: number }, null>;
  kill: Op<{ id: string; signal: string }, null>;
  list: Op<Record<string, never>, HostJobInfo[]>;
  screen: Op<{ id: string }, ScreenSnapshot>;
  serialize: Op<{ id: string }, string>;
  /** Output events for the job start on this connection; answers the screen just before them. */
  watch: Op<{ id: string }, string>;
  unwatch: Op<{ id: string }, null>;
  /** Drops an ended job (a running one is refused: its exit may not have been heard yet). */
  forget: Op<{ id: string }, null>;
  /**
   * Drops a job for good, killing its process group first if it still runs; answers once the
   * process has ended and its log is closed: the host writes nothing into the job's folder after.
   * A job the host does not know is already removed.
   */
  remove: Op<{ id: string }, null>;
  /** Kills every job's process group, answers, then the host exits. */
  shutdown: Op<Record<string, never>, null>;
}

export type HostOpName = keyof HostOps;

export interface HostRequest<K extends HostOpName = HostOpName> {
  id: number;
  op: K;
  args: HostOps[K]["args"];
  /** Wall-clock ms past which the host drops the request unanswered (its caller has given up). */
  deadline?: number;
}

export type HostResponse =
  | { id: number | null; ok: true; result: unknown }
  | { id: number | null; ok: false; error: string; code: string };

/**
 * A screen as a change of the one last told to the connection: its lines moved up by `scrolled`
 * (blank lines come in at the bottom), then the `changed` lines ([row, text]); every other field whole.
 */
export interface ScreenChange extends Omit<ScreenSnapshot, "lines"> {
  scrolled: number;
  changed: [number, string][];
}

/**
 * A job's screens go whole (`screen`) to a connection that has none of it yet, then as changes
 * (`screen-change`) to a connection that asked for them. After an `exit`, the next screen is whole.
 */
export type HostEvent =
  | { event: "exit"; id: string; exitCode: number | null; signal: number | null }
  | { event: "screen"; id: string; screen: ScreenSnapshot }
  | { event: "screen-change"; id: string; change: ScreenChange }
  | { event: "output"; id: string; data: string };

/** A request line longer than this ends the connection (a write of a long reply fits many times). */
export const HOST_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** What a client takes from its host in one line: a serialized big screen with its scrollback. */
export const HOST_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** A connection that leaves this much unread (a stalled watcher) is dropped. */
export const HOST_MAX_UNREAD_BYTES = 32 * 1024 * 1024;
