import { randomBytes, timingSafeEqual } from "node:crypto";
import { HttpError } from "./http-error.js";

export interface Lease {
  token: string;
  holder: string;
  expiresAt: number;
  /** Long polls in flight: a lease does not lapse while its agent is waiting on one. */
  waiting: number;
}

export type ClaimResult =
  | { ok: true; token: string; resumed: boolean; expiresAt: number }
  | { ok: false; expiresAt: number; holder: string };

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The leases of one run's agents. A claim grants a token; any authenticated request refreshes its
 * TTL; past the TTL the agent is free for a fresh claim; release frees it at once.
 */
export class LeaseBook {
  private readonly leases = new Map<string, Lease>();
  /** The last token each agent had, so an expired token is told apart from a wrong one. */
  private readonly lapsed = new Map<string, string>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private live(agentId: string): Lease | undefined {
    const lease = this.leases.get(agentId);
    if (lease && lease.waiting === 0 && lease.expiresAt <= this.now()) {
      this.leases.delete(agentId);
      this.lapsed.set(agentId, lease.token);
      return undefined;
    }
    return lease;
  }

  /** Resumes the presented lease if it is the live one, else grants a fresh token if the agent is free. */
  claim(agentId: string, presented: string | undefined, holder: string): ClaimResult {
    const lease = this.live(agentId);
    if (lease) {
      if (presented === undefined || !sameToken(presented, lease.token)) {
        return { ok: false, expiresAt: lease.expiresAt, holder: lease.holder };
      }
      lease.expiresAt = this.now() + this.ttlMs;
      if (holder) lease.holder = holder;
      return { ok: true, token: lease.token, resumed: true, expiresAt: lease.expiresAt };
    }
    const fresh: Lease = {
      token: `l-${randomBytes(16).toString("hex")}`,
      holder,
      expiresAt: this.now() + this.ttlMs,
      waiting: 0,
    };
    this.leases.set(agentId, fresh);
    this.lapsed.delete(agentId);
    return { ok: true, token: fresh.token, resumed: false, expiresAt: fresh.expiresAt };
  }

  /** Checks a request's token for the agent and refreshes the lease; 401 without one, 403 if wrong or expired. */
  authenticate(agentId: string, presented: string | undefined): Lease {
    if (presented === undefined || presented === "") {
      throw new HttpError(
        "lease_required",
        `this request needs the lease of ${agentId}: pass ?lease=<token> (or Authorization: Bearer <token>) from POST …/agents/${agentId}/claim`,
      );
    }
    const lease = this.live(agentId);
    if (lease && sameToken(presented, lease.token)) {
      lease.expiresAt = this.now() + this.ttlMs;
      return lease;
    }
    const last = this.lapsed.get(agentId);
    if (!lease && last !== undefined && sameToken(presented, last)) {
      throw new HttpError(
        "lease_expired",
        `the lease on ${agentId} expired (no request for ${this.ttlMs / 1000} s); claim the agent again for a fresh token`,
      );
    }
    throw new HttpError("lease_invalid", `that token is not the current lease on ${agentId}`);
  }

  /**
   * Authenticates a long poll and keeps the lease from lapsing until the returned function is
   * called, which refreshes it again and checks it is still this agent's lease.
   */
  hold(agentId: string, presented: string | undefined): () => void {
    const lease = this.authenticate(agentId, presented);
    lease.waiting++;
    return () => {
      lease.waiting--;
      lease.expiresAt = this.now() + this.ttlMs;
      // Still the live lease whose token matched above: nothing to compare again. Released or
      // replaced meanwhile: authenticate says which refusal it is.
      if (this.live(agentId) !== lease) this.authenticate(agentId, presented);
    };
  }

  release(agentId: string, presented: string | undefined): void {
    this.authenticate(agentId, presented);
    this.leases.delete(agentId);
  }

  /** Who holds the agent, for the run's view; undefined when it is free. */
  holding(agentId: string): { holder: string; expiresAt: number } | undefined {
    const lease = this.live(agentId);
    return lease && { holder: lease.holder, expiresAt: lease.expiresAt };
  }
}
