import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { excludedByAffordances } from "../client/affordance-check.js";
import { type AgentSession, RunEndedError } from "../client/agent-session.js";
import { UnreportedUsage } from "../client/unreported-usage.js";
import { MAX_SLEEP_MS } from "../engine/command-payload.js";
import type { Briefing, CommandPayload, Envelope, ToolSpec, Usage } from "../protocol/index.js";
import { writeCommand } from "./written-command.js";

/** How much of an observation's time is kept back for sending the noop when pi thinks too long. */
const DEADLINE_MARGIN_MS = 1500;
/** Reminders sent when a run of pi ends without answering the observation. */
const NUDGES = 2;

/** The tools every agent has besides its catalogue's: a sleep and a noop. */
const WAITING_TOOLS: ToolSpec[] = [
  {
    name: "sleep",
    description: "Do nothing for sleep_ms of sim time (you wake earlier if something happens to you).",
    lane: "body",
    durative: false,
    input_schema: {
      type: "object",
      properties: { sleep_ms: { type: "integer", minimum: 1, maximum: MAX_SLEEP_MS } },
      required: ["sleep_ms"],
      additionalProperties: false,
    },
  },
  {
    name: "noop",
    description: "Do nothing now; you wake when something happens to you, or after a while.",
    lane: "body",
    durative: false,
    input_schema: { type: "object", properties: {}, additionalProperties: false },
  },
];

/** How often pi's idleness is looked at while waiting for it. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

function payloadOf(tool: string, params: Record<string, unknown>): CommandPayload {
  if (tool === "sleep") return { sleep_ms: params.sleep_ms as number };
  if (tool === "noop") return { noop: true };
  return { action: tool, args: params };
}

/** What one model call spent, as pi's assistant messages carry it (pi-ai's `Usage`). */
interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: { total: number };
}

/**
 * pi's usage as a command reports it: every token the model read (pi counts cache reads and
 * writes apart from `input`), every token it wrote, and pi's cost from the model's prices in
 * models.json (0 for a model that gives none).
 */
function usageOfPi(usage: PiUsage): Usage {
  return {
    input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
    output_tokens: usage.output,
    cost: usage.cost.total,
  };
}

/** The briefing as pi reads it once, before the first observation. */
function briefingText(briefing: Briefing): string {
  const objectives = briefing.objectives.map((o) => `- ${o.id}: ${o.description}`).join("\n");
  return [
    `You play ${briefing.name} (${briefing.agent_id}, ${briefing.role}) in the warren scenario ${briefing.scenario}.`,
    briefing.premise,
    briefing.notes,
    `Objectives:\n${objectives}`,
    "Each observation comes as a message. Answer each with exactly one tool call (an action, sleep or noop), then end your turn: the next observation comes by itself.",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * pi playing one warren agent: the briefing's tools (their input_schema as parameters) plus sleep and
 * noop, each tool call a command answering the observation waiting; each observation a message that
 * starts a run of pi. A run that thinks past the observation's deadline is aborted and a noop sent,
 * and the next message says so. The command id is the tool call's, so a call sent again is a duplicate.
 * What pi's model calls spend goes with the next command the server accepts, as its usage.
 */
export class PiPlayer {
  private ctx: ExtensionContext | undefined;
  private current: Envelope | undefined;
  private answered = false;
  private running = false;
  private note = "";
  private nudges = 0;
  private firstMessage = true;
  private settle: (() => void) | undefined;
  private readonly unreported = new UnreportedUsage();

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly session: AgentSession,
    private readonly briefing: Briefing,
    private readonly log: (line: string) => void,
  ) {}

  /** Registers the tools and follows pi's runs; the loop starts with the session. */
  register(): void {
    for (const tool of [...this.briefing.tool_catalog, ...WAITING_TOOLS]) {
      this.pi.registerTool({
        name: tool.name,
        label: tool.name,
        description: tool.description,
        parameters: tool.input_schema as never,
        execute: async (toolCallId: string, params: Record<string, unknown>) => {
          const text = await this.command(payloadOf(tool.name, params ?? {}), toolCallId);
          return { content: [{ type: "text" as const, text }], details: {} };
        },
      });
    }
    this.pi.on("message_end", (event) => {
      if (event.message.role === "assistant") this.unreported.add(usageOfPi(event.message.usage));
    });
    // pi hands its earlier events to extensions before any tool_call handler runs: with one, the
    // usage of the message that calls a tool is counted before that tool's command is sent.
    this.pi.on("tool_call", () => undefined);
    this.pi.on("session_start", (_event, ctx) => {
      this.ctx = ctx;
      void this.loop();
    });
    this.pi.on("agent_start", (_event, ctx) => {
      this.ctx = ctx;
      this.running = true;
    });
    this.pi.on("agent_end", (_event, ctx) => {
      this.ctx = ctx;
      this.running = false;
      // pi still counts as streaming inside agent_end: what starts the next run waits a turn.
      setTimeout(() => this.afterRun(), 0);
    });
  }

  /** One command for the observation waiting: the tool's answer to the model. */
  private async command(payload: CommandPayload, toolCallId: string): Promise<string> {
    const envelope = this.current;
    if (!envelope) throw new Error("no observation is waiting for an answer: end your turn");
    if (this.answered)
      throw new Error("this observation is answered already (one command each): end your turn");
    const excluded = excludedByAffordances(envelope.affordances, payload);
    if (excluded) throw new Error(excluded);
    const written = writeCommand(payload, this.briefing.tool_catalog);
    const receipt = await this.submit(envelope, payload, `pi-${envelope.observation_id}-${toolCallId}`);
    if (receipt.status === "rejected") throw new Error(`${written} was refused: ${receipt.detail}`);
    if (receipt.status === "stale" || receipt.status === "expired") {
      throw new Error(`${written} came too late (${receipt.status}): ${receipt.detail}. End your turn.`);
    }
    this.answered = true;
    this.settle?.();
    this.log(`${envelope.observation_id}: ${written} ${receipt.status}`);
    return `${written}: ${receipt.status}. End your turn now; the next observation comes as a message.`;
  }

  private async loop(): Promise<void> {
    try {
      for (;;) {
        const envelope = await this.session.observe(25);
        if (!envelope) continue;
        await this.play(envelope);
      }
    } catch (error) {
      const ended = error instanceof RunEndedError;
      this.log(ended ? `the run ended: ${error.status}` : `warren: ${(error as Error).message}`);
      this.current = undefined;
      const why = ended
        ? `The run is over: ${error.status}. ${error.message}`
        : `warren failed: ${(error as Error).message}`;
      await this.say(this.note ? `${this.note}\n${why}` : why);
    }
  }

  /** Gives pi one observation and waits for its command, or sends a noop at the deadline. */
  private async play(envelope: Envelope): Promise<void> {
    this.current = envelope;
    this.answered = false;
    this.nudges = 0;
    const head = this.firstMessage ? `${briefingText(this.briefing)}\n\n` : "";
    this.firstMessage = false;
    await this.say(`${head}${this.note ? `${this.note}\n` : ""}${envelope.text}`);
    this.note = "";
    const thinkMs = envelope.deadline_unix * 1000 - Date.now() - DEADLINE_MARGIN_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await new Promise<boolean>((resolve) => {
      this.settle = () => resolve(false);
      timer = setTimeout(() => resolve(true), Math.max(0, thinkMs));
    });
    clearTimeout(timer);
    this.settle = undefined;
    if (timedOut && !this.answered) {
      this.answered = true;
      if (this.running) this.ctx?.abort();
      const receipt = await this.submit(envelope, { noop: true }, `pi-${envelope.observation_id}-noop`);
      this.note = `You took too long on the observation at t=${envelope.sim_time_ms / 1000}s: a noop was sent for it (${receipt.status}).`;
      this.log(`${envelope.observation_id}: thought too long, noop ${receipt.status}`);
      // A message sent while the aborted run winds down would follow it and be lost.
      await this.untilIdle();
    }
    this.session.answeredSeq = Math.max(this.session.answeredSeq, envelope.seq);
    this.current = undefined;
  }

  /** Sends a command with the usage not yet reported. */
  private submit(envelope: Envelope, payload: CommandPayload, commandId: string) {
    return this.unreported.carry((usage) => this.session.submit(envelope, payload, commandId, usage));
  }

  private async untilIdle(): Promise<void> {
    while (this.running || (this.ctx && !this.ctx.isIdle())) await pause();
  }

  /** A run of pi ended: an observation still unanswered gets a reminder, a couple of times. */
  private afterRun(): void {
    if (!this.current || this.answered || this.nudges >= NUDGES) return;
    this.nudges++;
    void this.say(
      "You have not answered this observation: call exactly one tool (an action, sleep or noop).",
    );
  }

  /**
   * A message to pi: it follows the run under way, or starts one. Just after a run ended pi still
   * counts as streaming for a moment, when a message would start nothing: it waits for idle first.
   */
  private async say(text: string): Promise<void> {
    while (!this.running && this.ctx && !this.ctx.isIdle()) await pause();
    if (this.running) this.pi.sendUserMessage(text, { deliverAs: "followUp" });
    else this.pi.sendUserMessage(text);
  }
}
