import { createHash } from "node:crypto";
import { type DeliverEvent, PEER_LIMITS } from "../../protocol/index.js";
import type { Caller } from "../caller.js";

/** A foreground session (a person's own interactive agent) while its connection is open. */
export interface ForegroundPeer {
  /** `f` + 7 hex of its session key. */
  id: string;
  session: string;
  name: string;
  cwd: string;
  pid: number;
  caller: Caller;
  /** Numbers its deliveries (nothing is stored for it: no mailbox). */
  nextSeq: number;
}

export function foregroundId(session: string): string {
  return `f${createHash("sha256").update(session).digest("hex").slice(0, 7)}`;
}

/** The registered foreground sessions: liveness is the connection. */
export class ForegroundPeers {
  private readonly byId = new Map<string, ForegroundPeer>();
  /**
   * Foreground sessions registered lately, by when they last registered (oldest first): one gone
   * is `not running`. Bounded: one that left goes after an hour, and past 256 gone the oldest go.
   */
  private readonly seen = new Map<string, { peer: ForegroundPeer; at: number }>();

  constructor(private readonly now: () => number = Date.now) {
    // Looked at every minute too: the hour runs out whether or not another session registers.
    setInterval(() => this.forgetGone(), 60_000).unref();
  }

  register(peer: Omit<ForegroundPeer, "nextSeq">): ForegroundPeer {
    const old = this.byId.get(peer.id) ?? this.seen.get(peer.id)?.peer;
    const registered = { ...peer, nextSeq: old?.nextSeq ?? 1 };
    this.byId.set(peer.id, registered);
    this.seen.delete(peer.id);
    this.seen.set(peer.id, { peer: registered, at: this.now() });
    this.forgetGone();
    return registered;
  }

  /** Gone ones past their hour, and the oldest gone past the count kept. */
  private forgetGone(): void {
    const live = new Set(this.live().map((p) => p.id));
    let gone = this.seen.size - live.size;
    const since = this.now() - PEER_LIMITS.goneForegroundMs;
    for (const [id, { at }] of this.seen) {
      if (live.has(id)) continue;
      if (at > since && gone <= PEER_LIMITS.goneForegroundKept) break;
      this.seen.delete(id);
      gone--;
    }
  }

  /** Sessions remembered, live or gone (for the tests of its bound). */
  get remembered(): number {
    return this.seen.size;
  }

  /** The live ones (a closed connection's peer is gone). */
  live(): ForegroundPeer[] {
    for (const [id, peer] of this.byId) if (peer.caller.closed) this.byId.delete(id);
    return [...this.byId.values()];
  }

  /** One that was registered and is gone now. */
  gone(id: string): ForegroundPeer | undefined {
    return this.byIdLive(id) ? undefined : this.seen.get(id)?.peer;
  }

  byCaller(caller: Caller): ForegroundPeer | undefined {
    return this.live().find((p) => p.caller === caller);
  }

  byIdLive(id: string): ForegroundPeer | undefined {
    return this.live().find((p) => p.id === id);
  }

  bySession(session: string): ForegroundPeer | undefined {
    return this.live().find((p) => p.session === session);
  }

  /** Hands an item to a connected foreground session; false when it is not connected. */
  deliver(peer: ForegroundPeer, item: Omit<DeliverEvent, "event" | "id" | "seq">): boolean {
    if (peer.caller.closed) return false;
    peer.caller.send({ event: "deliver", id: peer.id, seq: peer.nextSeq++, ...item });
    return true;
  }
}
