import { excludedByAffordances } from "../client/affordance-check.js";
import { type AgentSession, RunEndedError } from "../client/agent-session.js";
import type { Briefing, Envelope, Receipt } from "../protocol/index.js";
import { mcpCommandId } from "./command-id.js";
import { OBSERVE_TOOL, payloadOf } from "./mcp-tools.js";

/** What a tool call answers: text for the model, and whether it says something went wrong. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** The same as data, for clients that read structured content: the receipt and the observation. */
  structured?: { receipt?: Receipt; observation?: Envelope };
}

export interface McpSeatOptions {
  /** Seconds one call waits for an observation before saying none came yet (default 20). */
  waitS?: number;
}

/**
 * One agent of a run played through MCP tool calls. Calls are taken one at a time. The observation
 * a call answers is the last one a result showed the client: a call whose result was never
 * delivered (cancelled) leaves it in place, so the client's retry derives the same command id.
 */
export class McpSeat {
  private briefing: Briefing | undefined;
  /** The observation the next call answers. */
  private current: Envelope | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ended: string | undefined;

  constructor(
    readonly session: AgentSession,
    private readonly options: McpSeatOptions = {},
  ) {}

  /** Claims the agent and reads its briefing. */
  async start(): Promise<Briefing> {
    const claim = await this.session.claim();
    this.briefing = await this.session.briefing(claim.briefing_revision);
    return this.briefing;
  }

  /** One tool call; `delivered()` says whether its result will reach the client. */
  call(tool: string, args: Record<string, unknown>, delivered: () => boolean): Promise<ToolAnswer> {
    const next = this.queue.then(() => this.answer(tool, args, delivered));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async answer(
    tool: string,
    args: Record<string, unknown>,
    delivered: () => boolean,
  ): Promise<ToolAnswer> {
    if (this.ended) return this.endedAnswer(this.ended);
    try {
      const envelope = this.current ?? (await this.nextObservation());
      if (!envelope) return this.noneYet();
      if (tool === OBSERVE_TOOL) {
        if (delivered()) this.current = envelope;
        return { text: envelope.text, isError: false, structured: { observation: envelope } };
      }
      const made = payloadOf(this.briefing!, tool, args);
      if ("error" in made) return { text: made.error, isError: true };
      const excluded = excludedByAffordances(envelope.affordances, made.payload);
      if (excluded) return { text: `Not sent: ${excluded}.\n\n${envelope.text}`, isError: true };
      const commandId = mcpCommandId(this.session.agentId, envelope.seq, tool, args);
      const receipt = await this.session.submit(envelope, made.payload, commandId);
      if (receipt.status === "rejected") {
        return { text: `${tool} was refused: ${receipt.detail}\n\n${envelope.text}`, isError: true };
      }
      const next = await this.nextObservation();
      if (delivered()) this.current = next;
      const judged = await this.judged(commandId, receipt, envelope, next);
      const late = receipt.status === "stale" || receipt.status === "expired";
      const after = next ? `Next observation:\n${next.text}` : this.noneYet().text;
      return {
        text: `Receipt: ${tool} ${receipt.status}${receipt.detail ? ` (${receipt.detail})` : ""}; ${outcomeText(judged)}\n\n${after}`,
        isError: late,
        structured: { receipt: judged, ...(next ? { observation: next } : {}) },
      };
    } catch (error) {
      if (error instanceof RunEndedError) {
        this.ended = error.status;
        return this.endedAnswer(error.status);
      }
      return { text: `warren: ${(error as Error).message}`, isError: true };
    }
  }

  /** The next observation after the last answered, or undefined when none came within the wait. */
  private async nextObservation(): Promise<Envelope | undefined> {
    const envelope = await this.session.observe(this.options.waitS ?? 20);
    if (envelope) this.briefing = await this.session.briefing(envelope.briefing_revision);
    return envelope;
  }

  /**
   * The receipt with the outcome as it stands once the next observation came. The observation
   * right after the one answered is issued only once the command's batch resolved, and a refusal
   * is in its outcomes, so it settles the outcome without asking the server; after a gap (an
   * observation expired meanwhile) or with none yet, the server is asked.
   */
  private async judged(
    commandId: string,
    receipt: Receipt,
    answered: Envelope,
    next: Envelope | undefined,
  ): Promise<Receipt> {
    if (receipt.status !== "accepted" && receipt.status !== "duplicate") return receipt;
    if (next?.seq === answered.seq + 1) return { ...receipt, ...outcomeIn(next, answered.observation_id) };
    const now = await this.session.receipt(commandId).catch(() => receipt);
    return { ...now, status: receipt.status };
  }

  private noneYet(): ToolAnswer {
    const s = this.options.waitS ?? 20;
    return {
      text: `No observation came within ${s}s (the others are still acting): call observe.`,
      isError: false,
    };
  }

  private endedAnswer(status: string): ToolAnswer {
    return { text: `The run has ended (${status}): no command is taken any more.`, isError: true };
  }
}

/** The outcome of the command that answered `observationId`, from the observation after it. */
function outcomeIn(next: Envelope, observationId: string): Pick<Receipt, "outcome" | "outcome_reason"> {
  const refused = next.observation.outcomes.find(
    (o) => o.observation_id === observationId && o.result === "refused",
  );
  return refused
    ? { outcome: "rejected", outcome_reason: refused.reason }
    : { outcome: "accepted", outcome_reason: "" };
}

function outcomeText(receipt: Receipt): string {
  if (receipt.status !== "accepted" && receipt.status !== "duplicate") return "not done.";
  return `outcome ${receipt.outcome}${receipt.outcome_reason ? `: ${receipt.outcome_reason}` : "."}`;
}
