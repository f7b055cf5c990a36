import { judgePayload } from "./command-payload.js";
import type { Resolution } from "./simulation.js";
import type { ToolDefinition } from "./tool.js";
import type { Decision, Receipt, Verdict } from "./types.js";

type ObservationState =
  | { state: "outstanding" }
  | { state: "answered"; commandId: string }
  | { state: "expired"; because: "deadline" | "run_ended" };

/**
 * The remote agents' observations and the commands that answered them. Acceptance is
 * exactly-once per observation; only accepted commands occupy their command_id, so a rejected,
 * stale or expired command can be retried and is judged again against the current state.
 */
export class CommandLedger {
  private readonly observations = new Map<string, ObservationState>();
  private readonly accepted = new Map<string, { agentId: string; receipt: Receipt }>();

  /** Records an observation handed to a remote agent. */
  issue(observationId: string): void {
    this.observations.set(observationId, { state: "outstanding" });
  }

  isOutstanding(observationId: string): boolean {
    return this.observations.get(observationId)?.state === "outstanding";
  }

  /** The deadline passed: the observation is closed without a command. */
  expire(observationId: string): void {
    if (this.isOutstanding(observationId))
      this.observations.set(observationId, { state: "expired", because: "deadline" });
  }

  /**
   * Judges a command, in the spec's order: duplicate, unknown observation, closure, payload.
   * An accepted command comes back with its decision for the simulation.
   */
  judge(
    agentId: string,
    commandId: string,
    observationId: string,
    command: Record<string, unknown>,
    context: {
      tools: ReadonlyMap<string, ToolDefinition>;
      outstanding: string | undefined;
      runStatus: string;
    },
  ): { receipt: Receipt; decision?: Decision } {
    const verdict = (status: Verdict, detail: string) => ({
      receipt: {
        command_id: commandId,
        observation_id: observationId,
        status,
        detail,
        outcome: "none",
        outcome_reason: "",
      } as Receipt,
    });
    const earlier = this.accepted.get(commandId);
    if (earlier) {
      if (earlier.agentId !== agentId) {
        return verdict(
          "rejected",
          `command_id "${commandId}" was already used by another agent; mint a fresh one`,
        );
      }
      return { receipt: { ...earlier.receipt, status: "duplicate" } };
    }
    const state = this.observations.get(observationId);
    if (!state || !observationId.startsWith(`${agentId}#`)) {
      const latest = context.outstanding ? `; its outstanding observation is ${context.outstanding}` : "";
      return verdict("rejected", `observation "${observationId}" was never issued to ${agentId}${latest}`);
    }
    if (state.state === "expired") {
      return verdict(
        "expired",
        state.because === "deadline"
          ? `the decision deadline of ${observationId} passed; a noop was recorded and your next observation comes on your next wake`
          : `the run ended (${context.runStatus}) before ${observationId} was answered`,
      );
    }
    if (state.state === "answered") {
      const newer =
        context.outstanding && context.outstanding !== observationId
          ? `; answer ${context.outstanding} instead`
          : "";
      return verdict("stale", `${observationId} was already answered by command ${state.commandId}${newer}`);
    }
    const judged = judgePayload(command, context.tools);
    if (!judged.ok) return verdict("rejected", judged.detail);
    const receipt: Receipt = {
      command_id: commandId,
      observation_id: observationId,
      status: "accepted",
      detail: "",
      outcome: "pending",
      outcome_reason: "",
    };
    this.accepted.set(commandId, { agentId, receipt });
    this.observations.set(observationId, { state: "answered", commandId });
    return { receipt: { ...receipt }, decision: judged.decision };
  }

  /** The receipt of an accepted command, with its outcome as it stands. */
  receipt(agentId: string, commandId: string): Receipt | undefined {
    const entry = this.accepted.get(commandId);
    if (!entry || entry.agentId !== agentId) return undefined;
    return { ...entry.receipt };
  }

  /** Fills in the outcomes of accepted commands once their batch is resolved. */
  settle(resolutions: readonly Resolution[]): void {
    for (const r of resolutions) {
      const state = this.observations.get(r.observationId);
      if (state?.state !== "answered") continue;
      const entry = this.accepted.get(state.commandId);
      if (!entry) continue;
      entry.receipt.outcome = r.outcome;
      entry.receipt.outcome_reason = r.reason;
    }
  }

  /** The run ended: open observations expire and unresolved commands are cancelled. */
  close(): void {
    for (const [id, state] of this.observations) {
      if (state.state === "outstanding")
        this.observations.set(id, { state: "expired", because: "run_ended" });
    }
    for (const entry of this.accepted.values()) {
      if (entry.receipt.outcome !== "pending") continue;
      entry.receipt.outcome = "cancelled";
      entry.receipt.outcome_reason = "the run ended before this command's batch was resolved";
    }
  }
}
