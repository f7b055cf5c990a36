// Session records read as they grow: only what was appended, a line cut short kept for later, a
// line too long skipped at its edge, lines of kinds unknown passed over, and a usage line that does
// not read as expected making the usage unknown rather than wrong.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  AppendedLines,
  MAX_LINE_BYTES,
  READ_CHUNK_BYTES,
} from "../src/daemon/conversations/appended-lines.js";
import { claudeCodeRecord } from "../src/daemon/conversations/claude-code-record.js";
import { codexRecord } from "../src/daemon/conversations/codex-record.js";
import type { RecordTally } from "../src/daemon/conversations/session-record.js";

const dir = mkdtempSync(join(tmpdir(), "roost-records-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function readAll(lines: AppendedLines): string[] {
  const out: string[] = [];
  for (;;) {
    const read = lines.read();
    if (read === null) return out;
    out.push(...read.lines);
    if (!read.more) return out;
  }
}

test("only appended whole lines are read; a line cut short waits for its end, even mid-character", async () => {
  const file = join(dir, "grow.jsonl");
  const lines = new AppendedLines(file);
  assert.equal(lines.read(), null, "no file yet");
  writeFileSync(file, '{"a":1}\n{"b":');
  assert.deepEqual(readAll(lines), ['{"a":1}']);
  const euro = Buffer.from("€");
  appendFileSync(file, Buffer.concat([Buffer.from('"x'), euro.subarray(0, 1)]));
  assert.deepEqual(readAll(lines), []);
  appendFileSync(file, Buffer.concat([euro.subarray(1), Buffer.from('"}\n{"c":3}\n')]));
  assert.deepEqual(readAll(lines), ['{"b":"x€"}', '{"c":3}']);
  assert.deepEqual(readAll(lines), [], "nothing read twice");
});

test("a file that shrank is read again from its start, and says so", async () => {
  const file = join(dir, "shrink.jsonl");
  writeFileSync(file, "one\ntwo\n");
  const lines = new AppendedLines(file);
  readAll(lines);
  truncateSync(file, 0);
  writeFileSync(file, "new\n");
  const read = lines.read();
  assert.equal(read?.restarted, true);
  assert.deepEqual(read?.lines, ["new"]);
});

test(`a line of ${MAX_LINE_BYTES} bytes is read; one byte more is skipped whole, and the next line read`, async () => {
  const file = join(dir, "long.jsonl");
  const fits = "a".repeat(MAX_LINE_BYTES);
  writeFileSync(file, `${fits}\n${fits}b\nafter\n`);
  const lines = new AppendedLines(file);
  const got = readAll(lines);
  assert.equal(got.length, 2);
  assert.equal(got[0]!.length, MAX_LINE_BYTES);
  assert.equal(got[1], "after");
  // A read takes at most one chunk: a big record is caught up over several.
  writeFileSync(join(dir, "chunked.jsonl"), "x".repeat(READ_CHUNK_BYTES * 2));
  const chunked = new AppendedLines(join(dir, "chunked.jsonl"));
  assert.equal(chunked.read()?.more, true);
});

function tallied(tally: RecordTally, lines: unknown[]) {
  for (const line of lines) tally.take(line as Record<string, unknown>);
  return tally.facts();
}

const claudeAssistant = (id: string, usage: object, model = "claude-opus-4-8") => ({
  type: "assistant",
  sessionId: "s-1",
  message: { id, model, usage, content: [] },
});

test("Claude Code: a message written as several lines is counted once; unknown kinds are passed over", () => {
  const usage = {
    input_tokens: 100,
    output_tokens: 20,
    cache_read_input_tokens: 30,
    cache_creation_input_tokens: 40,
  };
  const facts = tallied(claudeCodeRecord.tally(), [
    { type: "user", sessionId: "s-1", message: { content: "hi" } },
    { type: "something-new", payload: 1 },
    claudeAssistant("m1", { ...usage, output_tokens: 1 }),
    claudeAssistant("m1", usage),
    claudeAssistant("m2", { input_tokens: 5, output_tokens: 5 }),
    claudeAssistant("m3", { input_tokens: 0, output_tokens: 0 }, "<synthetic>"),
  ]);
  assert.deepEqual(facts.usage, { input: 105, output: 25, cacheRead: 30, cacheWrite: 40 });
  assert.equal(facts.model, "claude-opus-4-8");
  assert.equal(facts.sessionId, "s-1");
  assert.deepEqual(facts.context, { tokens: 10, window: 200_000, percent: 0 });
  assert.equal(facts.read, true);
});

test("Claude Code: an assistant line whose usage does not read as counts makes the usage unknown", () => {
  const facts = tallied(claudeCodeRecord.tally(), [
    claudeAssistant("m1", { input_tokens: 1, output_tokens: 1 }),
    claudeAssistant("m2", { input_tokens: "many" }),
  ]);
  assert.equal(facts.usage, null);
  assert.equal(facts.context, null);
  assert.equal(facts.read, false);
});

const codexCount = (total: object, last: object, window = 258_400) => ({
  type: "event_msg",
  payload: {
    type: "token_count",
    info: { total_token_usage: total, last_token_usage: last, model_context_window: window },
  },
});

test("Codex: the last count's totals, cached input apart; the context is the last call's", () => {
  const facts = tallied(codexRecord.tally(), [
    { type: "session_meta", payload: { session_id: "c-1", cwd: "/x" } },
    { type: "turn_context", payload: { model: "gpt-9" } },
    { type: "event_msg", payload: { type: "token_count", info: null } },
    { type: "brand_new_kind", payload: {} },
    "not an object line",
    codexCount(
      { input_tokens: 100, cached_input_tokens: 60, output_tokens: 10, total_tokens: 110 },
      { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
    ),
    codexCount(
      {
        input_tokens: 300,
        cached_input_tokens: 160,
        cache_write_input_tokens: 7,
        output_tokens: 30,
        total_tokens: 330,
      },
      { input_tokens: 200, output_tokens: 20, total_tokens: 2584 },
    ),
  ]);
  assert.deepEqual(facts.usage, { input: 140, output: 30, cacheRead: 160, cacheWrite: 7 });
  assert.deepEqual(facts.context, { tokens: 2584, window: 258_400, percent: 1 });
  assert.equal(facts.model, "gpt-9");
  assert.equal(facts.sessionId, "c-1");
});

test("Codex: a count that does not read as one makes the usage unknown", () => {
  const facts = tallied(codexRecord.tally(), [codexCount({ input: 1 }, {})]);
  assert.equal(facts.usage, null);
  assert.equal(facts.read, false);
});

test("Codex: a job's rollout is the one begun in its folder since it started, another folder's is not looked at again", async () => {
  const home = join(dir, "codex-home");
  const now = new Date();
  const day = join(
    home,
    "sessions",
    String(now.getFullYear()),
    String(now.getMonth() + 1).padStart(2, "0"),
    String(now.getDate()).padStart(2, "0"),
  );
  mkdirSync(day, { recursive: true });
  const meta = (cwd: string, at: Date) =>
    `${JSON.stringify({ type: "session_meta", payload: { session_id: "x", cwd, timestamp: at.toISOString() } })}\n`;
  const startedAt = Date.now();
  writeFileSync(join(day, "rollout-a-other.jsonl"), meta("/elsewhere", now));
  writeFileSync(join(day, "rollout-b-old.jsonl"), meta("/mine", new Date(startedAt - 60_000)));
  writeFileSync(join(day, "rollout-c-mine.jsonl"), meta("/mine", new Date(startedAt + 10)));
  writeFileSync(join(day, "rollout-d-later.jsonl"), meta("/mine", new Date(startedAt + 5000)));
  const skip = new Set<string>();
  const place = { env: { CODEX_HOME: home }, cwd: "/mine", sessionId: null, startedAt };
  assert.equal(await codexRecord.find(place, skip), join(day, "rollout-c-mine.jsonl"));
  assert.ok(skip.has(join(day, "rollout-a-other.jsonl")));
  // Claimed by another job: the next one begun is this job's.
  skip.add(join(day, "rollout-c-mine.jsonl"));
  assert.equal(await codexRecord.find(place, skip), join(day, "rollout-d-later.jsonl"));
});
