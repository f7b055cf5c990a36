/**
 * Claude Code's session records: one JSON-lines file per conversation,
 * `<config dir>/projects/<cwd, each character not a letter or digit made "-">/<session id>.jsonl`,
 * the config dir `$CLAUDE_CONFIG_DIR` or `$HOME/.claude`. An `assistant` line carries the API
 * message: its `id`, `model` and `usage`; one message written as several lines (one per content
 * block) repeats its usage, so a message is counted once.
 */
import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import type { ContextUsage, TokenUsage } from "../../protocol/index.js";
import { contextOf } from "./conversation.js";
import {
  isObject,
  type RecordPlace,
  type RecordTally,
  type SessionRecordFormat,
  START_SLACK_MS,
  tokens,
} from "./session-record.js";

/** Claude models' context window unless the model's name says a larger one (`[1m]`). */
const CONTEXT_WINDOW = 200_000;
const LARGE_CONTEXT_WINDOW = 1_000_000;
/** The model name Claude Code gives messages it made itself (an error shown as a message): no model call. */
const SYNTHETIC_MODEL = "<synthetic>";

function projectFolder(place: RecordPlace): string {
  const config = place.env.CLAUDE_CONFIG_DIR || join(place.env.HOME || homedir(), ".claude");
  return join(config, "projects", place.cwd.replace(/[^a-zA-Z0-9]/g, "-"));
}

function windowOf(model: string | null): number {
  return model !== null && /\[1m\]/i.test(model) ? LARGE_CONTEXT_WINDOW : CONTEXT_WINDOW;
}

/** An API message's usage as counts, or null when it does not read as one. */
function countsOf(usage: unknown): TokenUsage | null {
  if (!isObject(usage)) return null;
  const input = tokens(usage.input_tokens);
  const output = tokens(usage.output_tokens);
  if (input === null || output === null) return null;
  return {
    input,
    output,
    cacheRead: tokens(usage.cache_read_input_tokens) ?? 0,
    cacheWrite: tokens(usage.cache_creation_input_tokens) ?? 0,
  };
}

class ClaudeTally implements RecordTally {
  private readonly totals: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  private last: { id: string | null; counts: TokenUsage } | null = null;
  private sessionId: string | null = null;
  private model: string | null = null;
  private context: ContextUsage | null = null;
  private understood = true;

  take(line: Record<string, unknown>): void {
    if (typeof line.sessionId === "string") this.sessionId = line.sessionId;
    if (line.type !== "assistant") return;
    const message = line.message;
    const counts = isObject(message) ? countsOf(message.usage) : null;
    if (!isObject(message) || counts === null) {
      this.understood = false;
      return;
    }
    const model = typeof message.model === "string" ? message.model : null;
    if (model === SYNTHETIC_MODEL) return;
    if (model !== null) this.model = model;
    const id = typeof message.id === "string" ? message.id : null;
    // The same message again (its next content block): its usage replaces what was counted of it.
    if (id !== null && this.last?.id === id) this.add(this.last.counts, -1);
    this.add(counts, 1);
    this.last = { id, counts };
    const used = counts.input + counts.cacheRead + counts.cacheWrite + counts.output;
    this.context = contextOf(used, windowOf(this.model));
  }

  private add(counts: TokenUsage, sign: 1 | -1): void {
    this.totals.input += sign * counts.input;
    this.totals.output += sign * counts.output;
    this.totals.cacheRead += sign * counts.cacheRead;
    this.totals.cacheWrite += sign * counts.cacheWrite;
  }

  facts() {
    const known = this.understood && this.last !== null;
    return {
      sessionId: this.sessionId,
      model: this.model,
      usage: known ? { ...this.totals } : null,
      context: this.understood ? this.context : null,
      read: this.understood,
    };
  }
}

/** The newest record in the folder written since the process started that no other job reads. */
async function newestSince(folder: string, startedAt: number, skip: Set<string>): Promise<string | null> {
  const names = await readdir(folder).catch(() => [] as string[]);
  let best: { file: string; mtimeMs: number } | null = null;
  for (const name of names) {
    const file = join(folder, name);
    if (!name.endsWith(".jsonl") || skip.has(file)) continue;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.mtimeMs < startedAt - START_SLACK_MS) continue;
    if (!best || info.mtimeMs > best.mtimeMs) best = { file, mtimeMs: info.mtimeMs };
  }
  return best?.file ?? null;
}

export const claudeCodeRecord: SessionRecordFormat = {
  async find(place, skip) {
    const folder = projectFolder(place);
    if (place.sessionId === null) return newestSince(folder, place.startedAt, skip);
    const file = join(folder, `${basename(place.sessionId)}.jsonl`);
    return (await stat(file).catch(() => null))?.isFile() ? file : null;
  },
  tally: () => new ClaudeTally(),
};
