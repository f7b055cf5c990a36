import { roostHome, statePaths } from "../home/paths.js";
import { takeWriterLock } from "../home/writer-lock.js";
import { RoostError } from "../protocol/errors.js";
import type { DeliverEvent } from "../protocol/events.js";
import type { PeerRegisterResult } from "../protocol/peers.js";
import { Connection } from "./connection.js";
import { PeerOps } from "./peers.js";

export interface ForegroundPeerOptions {
  /** The session's key (its session file's path). */
  session: string;
  name: string;
  cwd?: string;
  /** The roost home (default `$ROOST_HOME`, else `~/.pi/agent`). */
  home?: string;
  /** A peer item (a message, a report from a child, a notice); nothing is stored for a foreground session. */
  onItem?(item: DeliverEvent): void;
  /** The connection ended: the session is no longer a peer. */
  onClose?(): void;
}

/**
 * A foreground session (a person's own interactive agent, not a job) as a peer: takes roost's
 * writer lock for its session, registers on a connection of its own, and from then on sends,
 * spawns and watches. Its liveness is that connection: there is no mailbox.
 */
export class ForegroundPeer extends PeerOps {
  private constructor(
    private readonly connection: Connection,
    readonly id: string,
    readonly name: string,
    private readonly release: () => void,
  ) {
    super((op, args) => connection.request(op, args));
  }

  /** Takes the lock (`locked` while another live process holds it) and registers. */
  static async register(options: ForegroundPeerOptions): Promise<ForegroundPeer> {
    const paths = statePaths(options.home ?? roostHome());
    const lock = takeWriterLock(paths.stateDir, options.session);
    if (!lock.taken)
      throw new RoostError("locked", `the session is held by pid ${lock.holder}: it has a writer already`);
    try {
      const connection = await Connection.open(paths.socket, {
        onEvent: (event) => {
          if (event.event === "deliver") options.onItem?.(event as unknown as DeliverEvent);
        },
        onClose: () => {
          lock.release();
          options.onClose?.();
        },
      });
      const registered = (await connection
        .request("peer_register", {
          session: options.session,
          name: options.name,
          cwd: options.cwd ?? process.cwd(),
          pid: process.pid,
        })
        .catch((error: unknown) => {
          connection.close();
          throw error;
        })) as PeerRegisterResult;
      return new ForegroundPeer(connection, registered.id, registered.name, lock.release);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  get connected(): boolean {
    return this.connection.isOpen;
  }

  /** Leaves: the connection ends and the lock is let go. */
  close(): void {
    this.connection.close();
    this.release();
  }
}
