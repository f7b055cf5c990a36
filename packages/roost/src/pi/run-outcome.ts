import type { ContextUsage, ReportInput } from "../protocol/report.js";

/** A message of pi's agent as its events carry it (only some fields are read here). */
type AgentMessage = unknown;

/** How a run ended, read from its messages: what the row and the hand-back say. */
export interface RunOutcome {
  state: "done" | "blocked" | "failed";
  /** The run's final assistant text (its text blocks joined). */
  text: string;
  /** The final text when it asks something. */
  question: string | null;
  error: string | null;
  /** The person pressed Escape (or the run was aborted otherwise): nothing to report. */
  aborted: boolean;
}

interface AssistantLike {
  role: "assistant";
  content: { type: string; text?: string }[];
  stopReason?: string;
  errorMessage?: string;
}

function lastAssistant(messages: readonly AgentMessage[]): AssistantLike | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: string };
    if (message?.role === "assistant") return message as AssistantLike;
  }
  return undefined;
}

/** A run that ends on a question waits for an answer: its last paragraph ends with `?`. */
export function asksSomething(text: string): boolean {
  const last =
    text
      .trim()
      .split(/\n\s*\n/)
      .at(-1) ?? "";
  return /\?\s*$/.test(last);
}

export function runOutcome(messages: readonly AgentMessage[]): RunOutcome {
  const final = lastAssistant(messages);
  const text = (final?.content ?? [])
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("")
    .trim();
  const aborted = final?.stopReason === "aborted";
  if (final?.stopReason === "error")
    return {
      state: "failed",
      text,
      question: null,
      error: final.errorMessage ?? "the model call failed",
      aborted,
    };
  if (!aborted && asksSomething(text))
    return { state: "blocked", text, question: text, error: null, aborted };
  return { state: "done", text, question: null, error: null, aborted };
}

/** The row's one-line text from a longer one. */
export function oneLine(text: string): string | null {
  const line = text.split("\n").find((l) => l.trim() !== "");
  return line === undefined ? null : line.trim();
}

/** pi's context usage as a report's `context`, or null while unknown (right after a compaction). */
export function contextOf(
  usage: { tokens: number | null; contextWindow: number; percent: number | null } | undefined,
): ContextUsage | null {
  if (!usage || usage.tokens === null || usage.percent === null) return null;
  return { tokens: usage.tokens, window: usage.contextWindow, percent: Math.round(usage.percent * 10) / 10 };
}

/** Tokens and cost the session has used, summed over its assistant messages. */
export class UsageTotals {
  private input = 0;
  private output = 0;
  private cacheRead = 0;
  private cacheWrite = 0;
  private cost = 0;

  add(message: AgentMessage): void {
    const usage = (message as { role?: string; usage?: Record<string, unknown> }).usage;
    if ((message as { role?: string }).role !== "assistant" || !usage) return;
    const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    this.input += n(usage.input);
    this.output += n(usage.output);
    this.cacheRead += n(usage.cacheRead);
    this.cacheWrite += n(usage.cacheWrite);
    this.cost += n((usage.cost as { total?: unknown } | undefined)?.total);
  }

  get report(): ReportInput["usage"] {
    const { input, output, cacheRead, cacheWrite } = this;
    return { input, output, cacheRead, cacheWrite, cost: Math.round(this.cost * 1e6) / 1e6 };
  }
}
