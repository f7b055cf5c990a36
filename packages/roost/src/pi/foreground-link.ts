import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { ForegroundPeer } from "../client/foreground-peer.js";
import type { PeerOps } from "../client/peers.js";
import { AGENT_MESSAGE_TYPE } from "../protocol/agent-message.js";
import { RoostError } from "../protocol/errors.js";
import type { DeliverEvent } from "../protocol/events.js";
import { agentMessageDetails } from "./agent-message.js";
import { warn } from "./warn.js";

/**
 * A person's own interactive pi as a roost peer, made lazily on its first roost_* call: it takes
 * roost's writer lock on its session file, registers, keeps that one connection, and registers
 * again on every session start (new, resume, fork, reload). Items come on the connection and are
 * shown in the session as agent messages; nothing is stored for it in roost.
 */
/** Set once this process's pi has been a peer: pi loads its extensions anew on /new, /resume and /fork. */
const WAS_PEER = Symbol.for("pi-roost.foreground-peer");

export class ForegroundLink {
  private peer: Promise<ForegroundPeer> | undefined;
  /** The key of a session without a file (`--no-session`): random, for this process only. */
  private readonly scratchKey = `no-session:${randomBytes(8).toString("hex")}`;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly home?: string,
  ) {
    pi.on("session_start", (_event, ctx) => {
      // A peer once, a peer again on every session start (the new session file is the key).
      if (!this.peer && !(globalThis as { [WAS_PEER]?: true })[WAS_PEER]) return;
      const old = this.peer;
      this.peer = undefined;
      void old?.then((peer) => peer.close()).catch(() => {});
      void this.ops(ctx).catch((error: unknown) => warn(ctx, error));
    });
    pi.on("session_shutdown", () => {
      void this.peer?.then((peer) => peer.close()).catch(() => {});
      this.peer = undefined;
    });
  }

  ops(ctx: ExtensionContext): Promise<PeerOps> {
    if (!ctx.hasUI)
      return Promise.reject(new RoostError("unsupported", "only an interactive pi takes part in roost"));
    if (!this.peer) {
      const attempt = this.register(ctx);
      this.peer = attempt;
      // A failed attempt is tried again on the next call.
      attempt.catch(() => {
        if (this.peer === attempt) this.peer = undefined;
      });
    }
    return this.peer;
  }

  private register(ctx: ExtensionContext): Promise<ForegroundPeer> {
    (globalThis as { [WAS_PEER]?: true })[WAS_PEER] = true;
    const session = ctx.sessionManager.getSessionFile() ?? this.scratchKey;
    return ForegroundPeer.register({
      session,
      name: this.pi.getSessionName() ?? basename(ctx.cwd),
      cwd: ctx.cwd,
      home: this.home,
      onItem: (item) => this.deliver(item),
    });
  }

  private deliver(item: DeliverEvent): void {
    this.pi.sendMessage(
      {
        customType: AGENT_MESSAGE_TYPE,
        content: item.text,
        display: true,
        details: agentMessageDetails(item),
      },
      { triggerTurn: true, deliverAs: "steer" },
    );
  }
}
