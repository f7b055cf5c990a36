import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { PeerOps } from "../client/peers.js";
import { ReplyQueue } from "../client/reply-queue.js";
import { Reporter } from "../client/reporter.js";
import { AGENT_MESSAGE_TYPE } from "../protocol/agent-message.js";
import type { JobIdentity } from "../protocol/environment.js";
import { RoostError } from "../protocol/errors.js";
import type { DeliverEvent } from "../protocol/events.js";
import { LIMITS } from "../protocol/limits.js";
import type { RunCause } from "../protocol/peers.js";
import type { ReportInput } from "../protocol/report.js";
import { agentMessageDetails } from "./agent-message.js";
import { watchDialogs } from "./dialogs.js";
import { modelName, switchModel, switchThinking } from "./model-switch.js";
import { RunCauses } from "./run-causes.js";
import { contextOf, oneLine, type RunOutcome, runOutcome, UsageTotals } from "./run-outcome.js";
import { REPLY_ENTRY_TYPE, SessionLedger } from "./session-ledger.js";
import { warn } from "./warn.js";

/** What the worker says it does in `hello`. */
const CAPABILITIES = [
  "report",
  "replies",
  "steer",
  "usage",
  "context",
  "model-switch",
  "transcript",
  "peers",
  "agent-items",
];

const VERSION = "0.73";

type Message = { role?: string; content?: unknown; customType?: string; details?: { seq?: unknown } };

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c: { type?: string; text?: string }) => (c?.type === "text" ? (c.text ?? "") : ""))
    .join("");
}

/**
 * pi inside a roost job: reports the row from pi's events, takes replies and agent items through
 * one ordered queue (acked once pi has taken each), and hands a report back to its parent after a
 * run worth reporting.
 */
export class PiWorker {
  readonly peers: PeerOps;
  private ctx: ExtensionContext | undefined;
  private readonly reporter: Reporter;
  private readonly queue: ReplyQueue;
  private readonly ledger: SessionLedger;
  private readonly usage = new UsageTotals();
  private readonly causes = new RunCauses();
  /** Between agent_start and agent_end. */
  private inRun = false;
  /** From agent_start until pi is idle again (a macrotask after agent_end at the earliest). */
  private busy = false;
  private idleWaiters: (() => void)[] = [];
  private tool: string | null = null;
  private summary: string | null = null;
  private outcome: RunOutcome | undefined;
  private started = false;
  /** Until the daemon says this job has no parent, a report-worthy run hands back. */
  private hasParent = true;
  /** A dialog is open in pi's UI: agent items wait (senders are told so), the row says `dialog`. */
  private dialogOpen = false;
  private dialogWaiters: (() => void)[] = [];
  private awaitedMessage: { match(message: Message): boolean; resolve(): void } | undefined;

  constructor(
    private readonly pi: ExtensionAPI,
    identity: JobIdentity,
    private readonly wanted: { model?: string; thinking?: string } = {},
  ) {
    this.ledger = new SessionLedger(identity.dir);
    this.reporter = new Reporter({
      identity,
      agent: { name: "pi", version: VERSION },
      capabilities: CAPABILITIES,
      onDeliver: (item) => this.queue.offer(item),
      onUnauthorized: () => this.queue.stop(),
    });
    this.queue = new ReplyQueue({
      handler: (item) => this.take(item),
      ledger: this.ledger,
      ack: (seq, exact) => this.reporter.ack(seq, exact),
      onHandlerError: (error) => warn(this.ctx, error),
    });
    this.peers = new PeerOps((op, args) => this.call(op, args));
    this.listen();
  }

  /** Any op on the job's connection (after its report). */
  call(op: string, args: unknown): Promise<unknown> {
    return this.reporter.call(op, args);
  }

  private listen(): void {
    const pi = this.pi;
    pi.on("session_start", async (_event, ctx) => {
      this.ctx = ctx;
      if (ctx.hasUI) watchDialogs(ctx.ui, (open) => this.dialogChanged(open));
      const entries = ctx.sessionManager.getEntries();
      this.ledger.readSession(entries);
      const messages = entries.flatMap((e) => (e.type === "message" ? [e.message] : []));
      for (const message of messages) this.usage.add(message);
      // A session resumed after a restart shows how it stood; there was no run, so nothing hands back.
      if (messages.some((m) => (m as Message).role === "assistant")) this.outcome = runOutcome(messages);
      // A spawned child's model and level, once, on a fresh session (a resumed one keeps its own).
      if (!this.started && messages.length === 0) await this.applyWanted(ctx);
      this.started = true;
      this.report();
    });
    pi.on("agent_start", (_event, ctx) => {
      this.ctx = ctx;
      this.inRun = true;
      this.busy = true;
      this.tool = null;
      this.causes.began();
      this.report();
    });
    pi.on("tool_execution_start", (event) => {
      this.tool = event.toolName;
      this.report();
    });
    pi.on("tool_execution_end", () => {
      this.tool = null;
      this.report();
    });
    pi.on("message_end", (event, ctx) => {
      this.ctx = ctx;
      const message = event.message as Message;
      this.usage.add(message);
      if (message.role === "assistant") {
        this.summary = oneLine(textOf(message)) ?? this.summary;
        this.report();
      }
      const awaited = this.awaitedMessage;
      if (awaited?.match(message)) {
        this.awaitedMessage = undefined;
        awaited.resolve();
      }
    });
    pi.on("agent_end", (event, ctx) => {
      this.ctx = ctx;
      this.inRun = false;
      this.tool = null;
      const outcome = runOutcome(event.messages);
      const cause = this.causes.ended();
      this.outcome = outcome;
      this.report();
      this.handBack(cause, outcome);
      // pi still counts as streaming inside agent_end: what starts the next run waits for idle.
      this.settleWhenIdle();
    });
    pi.on("model_select", (_event, ctx) => {
      this.ctx = ctx;
      this.report();
    });
    pi.on("thinking_level_select", () => this.report());
    pi.on("session_shutdown", async () => {
      await this.reporter.close(() => this.queue.stop());
    });
  }

  /** The model and thinking level a spawned child was given (its parent's, unless the spawn said). */
  private async applyWanted(ctx: ExtensionContext): Promise<void> {
    try {
      if (this.wanted.model) await switchModel(this.pi, ctx, this.wanted.model);
      if (this.wanted.thinking) switchThinking(this.pi, this.wanted.thinking);
    } catch (error) {
      warn(ctx, error);
    }
  }

  private row(): ReportInput {
    const ctx = this.ctx;
    const base: ReportInput = {
      model: ctx?.model ? modelName(ctx.model) : null,
      thinking: this.pi.getThinkingLevel(),
      context: contextOf(ctx?.getContextUsage()),
      usage: this.usage.report,
      agentItems: true,
      session: ctx?.sessionManager.getSessionFile() ?? null,
    };
    if (this.dialogOpen)
      return {
        ...base,
        state: "blocked",
        status: "waiting",
        waitingFor: "dialog",
        summary: "a dialog is open in pi",
      };
    if (this.inRun) {
      const summary = this.tool ? `running ${this.tool}` : (this.summary ?? "working");
      return { ...base, state: "working", status: "busy", tool: this.tool, summary };
    }
    const outcome = this.outcome;
    if (!outcome)
      return {
        ...base,
        state: "blocked",
        status: "waiting",
        waitingFor: "first-prompt",
        summary: "waiting for a task",
      };
    const summary = oneLine(outcome.text);
    if (outcome.state === "failed")
      return { ...base, state: "failed", status: "idle", error: outcome.error, summary };
    if (outcome.state === "blocked")
      return {
        ...base,
        state: "blocked",
        status: "waiting",
        waitingFor: "question",
        question: outcome.question,
        summary,
      };
    return {
      ...base,
      state: "done",
      status: "idle",
      summary: outcome.aborted ? "stopped by the user" : summary,
    };
  }

  private report(): void {
    try {
      this.reporter.report(this.row());
    } catch (error) {
      warn(this.ctx, error);
    }
  }

  private handBack(cause: RunCause, outcome: RunOutcome): void {
    if (!this.hasParent || outcome.aborted) return;
    const cut = (text: string | null, max: number) =>
      text === null || text === "" ? null : text.slice(0, max);
    void this.peers
      .handback({
        result: cut(outcome.text, LIMITS.handbackResult),
        state: outcome.state,
        question: cut(outcome.question, LIMITS.question),
        error: cut(outcome.error, LIMITS.error),
        cause,
      })
      .catch((error: unknown) => {
        if (error instanceof RoostError && error.code === "unsupported") this.hasParent = false;
      });
  }

  private settleWhenIdle(): void {
    const check = () => {
      if (this.inRun) return;
      if (this.ctx && !this.ctx.isIdle()) {
        setTimeout(check, 5);
        return;
      }
      this.busy = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    };
    setTimeout(check, 0);
  }

  private dialogChanged(open: boolean): void {
    this.dialogOpen = open;
    this.report();
    if (open) return;
    const waiters = this.dialogWaiters;
    this.dialogWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private whenNoDialog(): Promise<void> {
    if (!this.dialogOpen) return Promise.resolve();
    return new Promise((resolve) => this.dialogWaiters.push(resolve));
  }

  private whenIdle(): Promise<void> {
    if (!this.busy && (this.ctx?.isIdle() ?? true)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Resolves when pi has finished a message that `match` picks (it is in the session then). */
  private taken(match: (message: Message) => boolean): Promise<void> {
    return new Promise((resolve) => (this.awaitedMessage = { match, resolve }));
  }

  /** One item of the queue: done once pi has taken it (then it is recorded and acked). */
  private async take(item: DeliverEvent): Promise<void> {
    if (item.kind !== undefined) return this.takeAgentItem(item);
    const text = item.text;
    const command = /^\/(model|thinking)(?:\s+(.*))?$/s.exec(text.trim());
    if (command) {
      const ctx = this.ctx!;
      const argument = (command[2] ?? "").trim();
      if (command[1] === "model") await switchModel(this.pi, ctx, argument);
      else switchThinking(this.pi, argument);
      this.report();
      return;
    }
    const steer = item.mode === "steer" && this.inRun;
    if (!steer) await this.whenIdle();
    this.causes.joined(item.seq === 1 ? "task" : "user", this.inRun);
    // The next user message is this one (another extension's `input` handler may have changed its text).
    const taken = this.taken((m) => m.role === "user");
    if (this.inRun) this.pi.sendUserMessage(text, { deliverAs: "steer" });
    else {
      this.busy = true;
      this.pi.sendUserMessage(text);
    }
    await taken;
    this.pi.appendEntry(REPLY_ENTRY_TYPE, { seq: item.seq });
  }

  private async takeAgentItem(item: DeliverEvent): Promise<void> {
    const details = agentMessageDetails(item);
    // The person answers the dialog first: a peer cannot answer it, nor slip in before it.
    await this.whenNoDialog();
    // Steered into the run under way; otherwise it starts one (once pi is idle: see agent_end).
    if (!this.inRun) await this.whenIdle();
    this.causes.joined(details.relation === "parent" ? "parent" : "agent", this.inRun);
    const taken = this.taken(
      (m) => m.role === "custom" && m.customType === AGENT_MESSAGE_TYPE && m.details?.seq === item.seq,
    );
    if (!this.inRun) this.busy = true;
    this.pi.sendMessage(
      { customType: AGENT_MESSAGE_TYPE, content: item.text, display: true, details },
      { triggerTurn: true, deliverAs: "steer" },
    );
    await taken;
  }
}
