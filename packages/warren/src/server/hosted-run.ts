import type { Run } from "../engine/index.js";
import type { AgentView, NpcPolicies, RunView } from "../protocol/index.js";
import { HttpError } from "./http-error.js";
import { LeaseBook } from "./leases.js";

/** A run as the server keeps it: the engine's run, its leases and how it was asked for. */
export class HostedRun {
  readonly leases: LeaseBook;
  private readonly claimedOnce = new Set<string>();

  constructor(
    readonly run: Run,
    readonly npcPolicy: NpcPolicies,
    readonly controlled: readonly string[],
    readonly createdUnix: number,
    /** Wall seconds after its creation at which a run still created ends abandoned. */
    readonly claimWithinS: number,
    leaseTtlMs: number,
    now: () => number,
  ) {
    this.leases = new LeaseBook(leaseTtlMs, now);
  }

  /** A run with no remote agents starts at once; the others wait for their claims. */
  startIfReady(): void {
    if (this.controlled.length === 0) this.run.start();
  }

  /** The run starts once every controlled agent has been claimed, so no deadline runs out unseen. */
  noteClaimed(agentId: string): void {
    this.claimedOnce.add(agentId);
    if (this.controlled.every((a) => this.claimedOnce.has(a))) this.run.start();
  }

  /** Controlled agents not yet claimed: the run starts when there are none. */
  unclaimed(): string[] {
    return this.controlled.filter((a) => !this.claimedOnce.has(a));
  }

  view(): RunView {
    const summary = this.run.summary();
    const unclaimed = this.unclaimed();
    const agents: AgentView[] = summary.agents.map((a) => {
      const held = this.leases.holding(a.agent_id);
      return {
        ...a,
        leased: held !== undefined,
        holder: held ? held.holder : null,
        lease_expires_unix: held ? held.expiresAt / 1000 : null,
      };
    });
    return {
      ...summary,
      trial: this.run.trial,
      status_reason:
        summary.status === "created"
          ? `waiting for ${unclaimed.join(", ")} to be claimed`
          : summary.status_reason,
      npc_policy: this.npcPolicy,
      affordances: this.run.affordanceMode,
      controlled_agents: [...this.controlled],
      unclaimed_agents: unclaimed,
      deadline_s: this.run.decisionTimeoutMs / 1000,
      max_sim_s: this.run.simTimeLimitMs / 1000,
      max_wall_s: this.run.maxWallMs / 1000,
      claim_within_s: this.claimWithinS,
      created_unix: this.createdUnix,
      agents,
    };
  }

  /** 404 for an agent the run does not have. */
  requireAgent(agentId: string): void {
    if (this.run.controllerOf(agentId) === undefined) {
      const known = this.run.agents().map((a) => a.agent_id);
      throw new HttpError(
        "unknown_agent",
        `run ${this.run.id} has no agent "${agentId}"; its agents are ${known.join(", ")}`,
      );
    }
  }

  /** 410 once the run has ended, with its terminal status. */
  requireNotEnded(): void {
    const status = this.run.status;
    if (status === "created" || status === "running") return;
    throw new HttpError(
      status === "interrupted" ? "run_interrupted" : "run_ended",
      `run ${this.run.id} has ended: ${status}${this.run.statusReason ? ` (${this.run.statusReason})` : ""}`,
      { status },
    );
  }
}
