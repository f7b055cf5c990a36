import { judgePayload } from "./command-payload.js";
import { USAGE_CHARS } from "./command-usage.js";
import type { Resolution } from "./simulation.js";
import type { ToolDefinition } from "./tool.js";
import type { Decision, Receipt, Usage, Verdict } from "./types.js";

type ObservationState =
  | { state: "outstanding" }
  | { state: "answered"; commandId: string }
  | { state: "expired"; because: "deadline" | "run_ended" };

/** Closed observations (and the commands that answered them) a ledger remembers by default. */
export const DEFAULT_KEPT_CLOSED_OBSERVATIONS = 10_000;

/** An accepted command as the ledger remembers it: whose it is, its receipt and the usage it reported. */
interface AcceptedCommand {
  agentId: string;
  receipt: Receipt;
  usage?: Usage;
}

/** A remembered accepted command's size: its ids (the command id twice, as key and in the receipt), fixed fields and usage. */
function acceptedSize({ receipt, usage }: AcceptedCommand): number {
  return 2 * receipt.command_id.length + 2 * receipt.observation_id.length + 160 + (usage ? USAGE_CHARS : 0);
}

/**
 * The remote agents' observations and the commands that answered them. Acceptance is
 * exactly-once per observation; only accepted commands occupy their command_id, so a rejected,
 * stale or expired command can be retried and is judged again against the current state.
 *
 * Its memory is bounded however long the run: past `keptClosed` closed observations the oldest
 * are forgotten with their commands. A command for a forgotten observation is `stale` (it was
 * closed long ago), and a forgotten command's receipt is no longer found.
 */
export class CommandLedger {
  private readonly observations = new Map<string, ObservationState>();
  private readonly accepted = new Map<string, AcceptedCommand>();
  /** Closed observation ids, oldest first, from `closedStart` on. */
  private closed: string[] = [];
  private closedStart = 0;
  /** Per agent, the seq below which its observations may have been forgotten. */
  private readonly forgottenBelow = new Map<string, number>();
  private acceptedBytes = 0;

  constructor(private readonly keptClosed = DEFAULT_KEPT_CLOSED_OBSERVATIONS) {}

  /** Records an observation handed to a remote agent. */
  issue(observationId: string): void {
    this.observations.set(observationId, { state: "outstanding" });
  }

  isOutstanding(observationId: string): boolean {
    return this.observations.get(observationId)?.state === "outstanding";
  }

  /** The deadline passed: the observation is closed without a command. */
  expire(observationId: string): void {
    if (!this.isOutstanding(observationId)) return;
    this.observations.set(observationId, { state: "expired", because: "deadline" });
    this.closed.push(observationId);
    this.forgetOldest();
  }

  /**
   * Judges a command, in the spec's order: duplicate, unknown observation, closure, payload.
   * An accepted command comes back with its decision for the simulation; its usage is kept with
   * it and logged with its decision, so usage counts once, with the one command accepted.
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
    usage?: Usage,
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
    if (!state && this.wasForgotten(agentId, observationId)) {
      const newer = context.outstanding ? `; answer ${context.outstanding} instead` : "";
      return verdict("stale", `${observationId} was closed long ago${newer}`);
    }
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
    const entry: AcceptedCommand = usage ? { agentId, receipt, usage } : { agentId, receipt };
    this.accepted.set(commandId, entry);
    this.acceptedBytes += acceptedSize(entry);
    this.observations.set(observationId, { state: "answered", commandId });
    this.closed.push(observationId);
    return { receipt: { ...receipt }, decision: judged.decision };
  }

  /** The size of the accepted commands it remembers, in JSON characters (their ids counted twice: map key and receipt). */
  get retainedBytes(): number {
    return this.acceptedBytes;
  }

  /** The receipt of an accepted command, with its outcome as it stands. */
  receipt(agentId: string, commandId: string): Receipt | undefined {
    const entry = this.accepted.get(commandId);
    if (!entry || entry.agentId !== agentId) return undefined;
    return { ...entry.receipt };
  }

  /**
   * Fills in the outcome of an accepted command as its batch resolves; returns its receipt and
   * usage, or undefined when no remote command answered the observation (a runner's, or an
   * expired one).
   */
  settle(resolution: Resolution): { receipt: Receipt; usage?: Usage } | undefined {
    const state = this.observations.get(resolution.observationId);
    const entry = state?.state === "answered" ? this.accepted.get(state.commandId) : undefined;
    if (entry) {
      entry.receipt.outcome = resolution.outcome;
      entry.receipt.outcome_reason = resolution.reason;
    }
    this.forgetOldest();
    return entry && { receipt: { ...entry.receipt }, ...(entry.usage ? { usage: entry.usage } : {}) };
  }

  private wasForgotten(agentId: string, observationId: string): boolean {
    if (!observationId.startsWith(`${agentId}#`)) return false;
    const seq = Number(observationId.slice(agentId.length + 1));
    return Number.isInteger(seq) && seq < (this.forgottenBelow.get(agentId) ?? 0);
  }

  /** Forgets the oldest closed observations past the limit, never one whose outcome is pending. */
  private forgetOldest(): void {
    while (this.closed.length - this.closedStart > this.keptClosed) {
      const id = this.closed[this.closedStart]!;
      const state = this.observations.get(id);
      if (state?.state === "answered") {
        const entry = this.accepted.get(state.commandId);
        if (entry?.receipt.outcome === "pending") break;
        if (entry) this.acceptedBytes -= acceptedSize(entry);
        this.accepted.delete(state.commandId);
      }
      this.observations.delete(id);
      this.closedStart++;
      const hash = id.lastIndexOf("#");
      const agentId = id.slice(0, hash);
      const seq = Number(id.slice(hash + 1));
      this.forgottenBelow.set(agentId, Math.max(this.forgottenBelow.get(agentId) ?? 0, seq + 1));
    }
    // Compacted now and then, so the queue's memory stays bounded too.
    if (this.closedStart > this.keptClosed) {
      this.closed = this.closed.slice(this.closedStart);
      this.closedStart = 0;
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
