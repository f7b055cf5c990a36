import { LIMITS, PEER_LIMITS, RoostError, type SendArgs, type SendResult } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import { deliverItem } from "./deliver-item.js";
import { envelope } from "./envelope.js";
import { feedLine, type PeerContext } from "./peer-context.js";
import { RateWindow } from "./rate-window.js";
import { allSessions, findTarget, foregroundSession, relationOf, speakerOf } from "./sessions.js";

/**
 * `send {to, message}`: at most 8000 characters, not to itself, 30 a minute per sender
 * (`rate_limited`), the same text to the same session within a minute is a `duplicate` (not
 * delivered), 20 agent items waiting (`full`).
 */
export class Messaging {
  private readonly sent: RateWindow;
  private readonly texts: RateWindow;

  constructor(private readonly pc: PeerContext) {
    this.sent = new RateWindow(60_000, () => pc.now(), PEER_LIMITS.windowKeys);
    this.texts = new RateWindow(PEER_LIMITS.duplicateWindowMs, () => pc.now(), PEER_LIMITS.windowKeys);
  }

  send(caller: Caller, args: SendArgs): SendResult {
    const { state, foreground, feed } = this.pc;
    const self = speakerOf(state, foreground, caller);
    const { message } = args;
    if (message.trim() === "") throw new RoostError("bad_request", "message must be a non-empty string");
    const settings = this.pc.settings();
    const gone = foreground.gone(args.to);
    if (gone) {
      // A foreground session has no mailbox: one that is not connected is not running.
      const other = foregroundSession(gone);
      const relation = relationOf(self, other);
      if (relation === "external" && !settings.externalMessages)
        throw new RoostError("not_found", `no peer ${JSON.stringify(args.to)} you may reach`);
      return { outcome: "not running", id: gone.id, name: gone.name, relation };
    }
    // The concierge watches the whole fleet: it reaches any session, by id or by name.
    const anywhere = self.job?.role === "concierge";
    const target = findTarget(
      self,
      allSessions(state, foreground),
      args.to,
      settings.externalMessages || anywhere,
      anywhere,
    );
    if (this.sent.count(self.peerId) >= PEER_LIMITS.messagesPerMinute)
      throw new RoostError(
        "rate_limited",
        `${PEER_LIMITS.messagesPerMinute} messages a minute at most; wait before sending more`,
      );
    const relation = relationOf(target, self);
    const result = (outcome: SendResult["outcome"]): SendResult => ({
      outcome,
      id: target.peerId,
      name: target.name,
      relation: relationOf(self, target),
    });
    const textKey = `${self.peerId}\u0000${target.session}\u0000${message}`;
    if (this.texts.count(textKey) > 0) return result("duplicate");
    const text = envelope({ from: self.name, id: self.peerId, relation, kind: "message" }, message);
    let outcome: SendResult["outcome"];
    if (target.foreground) {
      outcome = foreground.deliver(target.foreground, { text, kind: "message", from: self.name, relation })
        ? "delivered"
        : "not running";
    } else {
      const job = target.job!;
      outcome = deliverItem(this.pc.state, this.pc.supervisor, job, {
        kind: "message",
        from: self.name,
        relation,
        text,
      });
      if (outcome === "full")
        throw new RoostError(
          "full",
          `${job.name} has ${LIMITS.maxPendingAgentItems} agent items waiting already`,
        );
      if ((outcome === "delivered" || outcome === "queued") && job.report?.waitingFor === "dialog")
        outcome = "waiting on a dialog";
    }
    this.sent.record(self.peerId);
    if (outcome !== "stopped" && outcome !== "not running") this.texts.record(textKey);
    feed.add({
      kind: "message",
      why: outcome,
      text: `${self.name} → ${target.name}: ${feedLine(message)}`,
      who: self.name,
      whoId: self.job ? self.job.id : self.peerId,
      jobs: [self.job?.id, target.job?.id].filter((id): id is string => id !== undefined),
    });
    return result(outcome);
  }
}
