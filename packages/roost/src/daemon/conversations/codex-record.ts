/**
 * Codex's session records ("rollouts"): one JSON-lines file per conversation,
 * `<CODEX_HOME or $HOME/.codex>/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl` (the local
 * date it began). Each line is `{type, payload}`: `session_meta` (`session_id`, `cwd`,
 * `timestamp`), `turn_context` (`model`), `event_msg` of payload type `token_count` (`info`:
 * `total_token_usage` so far, `last_token_usage` of the last call, `model_context_window`).
 * A job's rollout is the first one begun in its folder since its process started.
 */
import { open, readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
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

/** The first line (`session_meta`, with the model's instructions in it) is looked for in this much. */
const FIRST_LINE_BYTES = 256 * 1024;
/** Day folders looked in, back from today: a job's rollout is begun when it first talks to its model. */
const DAYS_LOOKED_BACK = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

function sessionsFolder(place: RecordPlace): string {
  return join(place.env.CODEX_HOME || join(place.env.HOME || homedir(), ".codex"), "sessions");
}

/** The day folders from the day before the process started to today, as Codex names them (local date). */
function dayFolders(root: string, startedAt: number, now: number): string[] {
  const folders: string[] = [];
  const first = Math.max(startedAt - DAY_MS, now - DAYS_LOOKED_BACK * DAY_MS);
  for (let t = first; t < now + DAY_MS; t += DAY_MS) {
    const d = new Date(Math.min(t, now));
    const folder = join(
      root,
      String(d.getFullYear()),
      String(d.getMonth() + 1).padStart(2, "0"),
      String(d.getDate()).padStart(2, "0"),
    );
    if (!folders.includes(folder)) folders.push(folder);
  }
  return folders;
}

/** A rollout's `session_meta`, or null when its first line is not one. */
async function sessionMeta(file: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(FIRST_LINE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, FIRST_LINE_BYTES, 0);
      const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
      if (end === -1) return null;
      text = buffer.subarray(0, end).toString("utf8");
    } finally {
      await handle.close();
    }
    const line: unknown = JSON.parse(text);
    return isObject(line) && line.type === "session_meta" && isObject(line.payload) ? line.payload : null;
  } catch {
    return null;
  }
}

function countsOf(usage: unknown): (TokenUsage & { total: number }) | null {
  if (!isObject(usage)) return null;
  const input = tokens(usage.input_tokens);
  const output = tokens(usage.output_tokens);
  if (input === null || output === null) return null;
  const cached = tokens(usage.cached_input_tokens) ?? 0;
  return {
    // Codex counts cached input within its input; a row's input is what was not read from the cache.
    input: Math.max(0, input - cached),
    output,
    cacheRead: cached,
    cacheWrite: tokens(usage.cache_write_input_tokens) ?? 0,
    total: tokens(usage.total_tokens) ?? input + output,
  };
}

class CodexTally implements RecordTally {
  private sessionId: string | null = null;
  private model: string | null = null;
  private window: number | null = null;
  private usage: TokenUsage | null = null;
  private lastTotal: number | null = null;
  private understood = true;

  take(line: Record<string, unknown>): void {
    const payload = line.payload;
    if (!isObject(payload)) return;
    if (line.type === "session_meta") {
      const id = payload.session_id ?? payload.id;
      if (typeof id === "string") this.sessionId = id;
    } else if (line.type === "turn_context") {
      if (typeof payload.model === "string") this.model = payload.model;
    } else if (line.type === "event_msg") {
      if (payload.type === "task_started") this.window = tokens(payload.model_context_window) ?? this.window;
      if (payload.type === "token_count") this.takeCount(payload.info);
    }
  }

  private takeCount(info: unknown): void {
    // A count without `info` carries rate limits only.
    if (info === null || info === undefined) return;
    const total = isObject(info) ? countsOf(info.total_token_usage) : null;
    if (!isObject(info) || total === null) {
      this.understood = false;
      return;
    }
    const { total: _sum, ...usage } = total;
    this.usage = usage;
    this.window = tokens(info.model_context_window) ?? this.window;
    this.lastTotal = countsOf(info.last_token_usage)?.total ?? this.lastTotal;
  }

  facts() {
    const context: ContextUsage | null =
      this.understood && this.lastTotal !== null && this.window !== null
        ? contextOf(this.lastTotal, this.window)
        : null;
    return {
      sessionId: this.sessionId,
      model: this.model,
      usage: this.understood ? this.usage : null,
      context,
      read: this.understood,
    };
  }
}

export const codexRecord: SessionRecordFormat = {
  async find(place, skip) {
    let best: { file: string; began: number } | null = null;
    for (const folder of dayFolders(sessionsFolder(place), place.startedAt, Date.now())) {
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names) {
        const file = join(folder, name);
        if (!name.startsWith("rollout-") || !name.endsWith(".jsonl") || skip.has(file)) continue;
        if (place.sessionId !== null) {
          if (name.endsWith(`-${place.sessionId}.jsonl`)) return file;
          continue;
        }
        const info = await stat(file).catch(() => null);
        if (!info || info.mtimeMs < place.startedAt - START_SLACK_MS) continue;
        const meta = await sessionMeta(file);
        // Not begun yet (its first line still being written): looked at again next time.
        if (meta === null) continue;
        const began = Date.parse(String(meta.timestamp));
        if (meta.cwd !== place.cwd || !(began >= place.startedAt - START_SLACK_MS)) {
          skip.add(file);
          continue;
        }
        if (!best || began < best.began) best = { file, began };
      }
    }
    return best?.file ?? null;
  },
  tally: () => new CodexTally(),
};
