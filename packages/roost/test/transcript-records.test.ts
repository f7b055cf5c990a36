// The transcript formats on sample lines of each program's record (the shapes the real Claude Code
// 2.1.197, Codex 0.171.0 and pi 0.73.1 wrote against the fake model servers), and the pages read
// from a record file: a line cut short, a kind unknown, the limits at their edges, a record replaced.
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { claudeCodeEntries } from "../src/daemon/transcripts/claude-code-transcript.js";
import { codexEntries } from "../src/daemon/transcripts/codex-transcript.js";
import { piEntries } from "../src/daemon/transcripts/pi-transcript.js";
import { parseCursor, READ_BUDGET_BYTES, readPage } from "../src/daemon/transcripts/transcript-page.js";
import { LIMITS, type TranscriptEntry } from "../src/protocol/index.js";

const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n");
const entriesOf = (format: (line: Record<string, unknown>) => TranscriptEntry[], text: string) =>
  text.split("\n").flatMap((line) => format(JSON.parse(line)));

const AT = "2026-12-04T01:38:42.634Z";

const CLAUDE = lines(
  { type: "permission-mode", permissionMode: "default", sessionId: "s" },
  {
    type: "user",
    timestamp: AT,
    isSidechain: false,
    message: { role: "user", content: "RUN echo hi > yes.txt" },
  },
  { type: "attachment", timestamp: AT, attachment: { type: "skill_listing", content: "- a skill" } },
  // What Claude Code adds itself, and a subagent's line: not the conversation's.
  { type: "user", timestamp: AT, isMeta: true, message: { role: "user", content: "Caveat: local commands" } },
  { type: "user", timestamp: AT, isSidechain: true, message: { role: "user", content: "a subagent's task" } },
  {
    type: "assistant",
    timestamp: "2026-12-04T01:38:42.830Z",
    message: {
      id: "msg_3",
      role: "assistant",
      model: "claude-fake",
      content: [
        { type: "thinking", thinking: "hmm" },
        {
          type: "tool_use",
          id: "toolu_2",
          name: "Bash",
          input: { command: "echo hi > yes.txt", description: "Run the command" },
        },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  },
  {
    type: "user",
    timestamp: "2026-12-04T01:38:43.772Z",
    message: {
      role: "user",
      content: [
        {
          tool_use_id: "toolu_2",
          type: "tool_result",
          content: "(Bash completed with no output)",
          is_error: false,
        },
        {
          tool_use_id: "toolu_3",
          type: "tool_result",
          content: [{ type: "text", text: "denied" }],
          is_error: true,
        },
      ],
    },
    toolUseResult: { stdout: "", stderr: "" },
  },
  {
    type: "assistant",
    timestamp: "2026-12-04T01:38:44.016Z",
    message: { id: "msg_4", role: "assistant", content: [{ type: "text", text: "ANSWER: the command ran" }] },
  },
  { type: "system", subtype: "turn_duration", timestamp: AT },
);

const CODEX_TURN = { turn_id: "t1" };
const CODEX = lines(
  { timestamp: AT, type: "session_meta", payload: { session_id: "s", cwd: "/tmp/x" } },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "<skills_instructions>" }],
    },
  },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/tmp/x</cwd>" }],
      internal_chat_message_metadata_passthrough: {
        ...CODEX_TURN,
        content_item_metadata: [{ provenance: { type: "harness", hook: false } }],
      },
    },
  },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "RUN echo hi > yes.txt" }],
      internal_chat_message_metadata_passthrough: {
        ...CODEX_TURN,
        content_item_metadata: [{ provenance: { type: "user" } }],
      },
    },
  },
  { timestamp: AT, type: "event_msg", payload: { type: "token_count", info: null } },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "function_call",
      id: "fc_5",
      name: "exec_command",
      arguments: '{"cmd":"echo hi > yes.txt"}',
      call_id: "call_6",
    },
  },
  { timestamp: AT, type: "response_item", payload: { type: "reasoning", summary: [] } },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: "call_6",
      output: "Process exited with code 0\nOutput:\n",
    },
  },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: "call_7",
      output: { content: "no such tool", success: false },
    },
  },
  {
    timestamp: AT,
    type: "response_item",
    payload: {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "ANSWER: the command ran", annotations: [] }],
    },
  },
);

const PI = lines(
  { type: "session", version: 3, id: "s", timestamp: AT, cwd: "/tmp/x" },
  { type: "model_change", id: "a", parentId: null, timestamp: AT, provider: "fake", modelId: "fake-model" },
  { type: "custom", customType: "pi-roost-reply", data: { seq: 1 }, id: "b", timestamp: AT },
  {
    type: "message",
    id: "c",
    timestamp: AT,
    message: { role: "user", content: [{ type: "text", text: "run it" }], timestamp: 1 },
  },
  {
    type: "message",
    id: "d",
    timestamp: AT,
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "echo hi" } }],
      stopReason: "toolUse",
    },
  },
  {
    type: "message",
    id: "e",
    timestamp: AT,
    message: {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "bash",
      content: [{ type: "text", text: "hi\n" }],
      isError: false,
    },
  },
  {
    type: "custom_message",
    customType: "pi-roost-agent-message",
    content:
      '<agent-message from="kid" id="8d1e7e5e" relation="child" kind="report">\nstate: done\n\nkid result\n</agent-message>\nThis comes from another agent session, not from the user.',
    display: true,
    details: { seq: 3, from: "kid", relation: "child", kind: "report" },
    id: "f",
    timestamp: AT,
  },
  {
    type: "custom_message",
    customType: "another-extension",
    content: "its own",
    display: true,
    id: "g",
    timestamp: AT,
  },
  {
    type: "message",
    id: "h",
    timestamp: AT,
    message: { role: "assistant", content: [], stopReason: "error", errorMessage: "connection refused" },
  },
);

describe("each program's record as entries", () => {
  test("Claude Code: the person's text, tool_use and tool_result blocks, the answer; meta, sidechain, thinking and other types left out", () => {
    assert.deepEqual(entriesOf(claudeCodeEntries, CLAUDE), [
      { kind: "user", at: AT, text: "RUN echo hi > yes.txt" },
      {
        kind: "tool-call",
        at: "2026-12-04T01:38:42.830Z",
        text: '{"command":"echo hi > yes.txt","description":"Run the command"}',
        tool: "Bash",
        callId: "toolu_2",
      },
      {
        kind: "tool-result",
        at: "2026-12-04T01:38:43.772Z",
        text: "(Bash completed with no output)",
        callId: "toolu_2",
      },
      { kind: "tool-result", at: "2026-12-04T01:38:43.772Z", text: "denied", callId: "toolu_3", error: true },
      { kind: "assistant", at: "2026-12-04T01:38:44.016Z", text: "ANSWER: the command ran" },
    ]);
  });

  test("Codex: the person's message, a function call and its outputs, the answer; its own context, developer and other items left out", () => {
    assert.deepEqual(entriesOf(codexEntries, CODEX), [
      { kind: "user", at: AT, text: "RUN echo hi > yes.txt" },
      {
        kind: "tool-call",
        at: AT,
        text: '{"cmd":"echo hi > yes.txt"}',
        tool: "exec_command",
        callId: "call_6",
      },
      { kind: "tool-result", at: AT, text: "Process exited with code 0\nOutput:\n", callId: "call_6" },
      { kind: "tool-result", at: AT, text: "no such tool", callId: "call_7", error: true },
      { kind: "assistant", at: AT, text: "ANSWER: the command ran" },
    ]);
  });

  test("pi: messages, a tool call and its result, an agent item as its own entry, a model's error; other entries left out", () => {
    assert.deepEqual(entriesOf(piEntries, PI), [
      { kind: "user", at: AT, text: "run it" },
      { kind: "tool-call", at: AT, text: '{"command":"echo hi"}', tool: "bash", callId: "call_1" },
      { kind: "tool-result", at: AT, text: "hi\n", tool: "bash", callId: "call_1" },
      {
        kind: "agent-message",
        at: AT,
        text: "state: done\n\nkid result",
        from: "kid",
        relation: "child",
        delivery: "report",
      },
      { kind: "assistant", at: AT, text: "connection refused", error: true },
    ]);
  });

  test("fields of the wrong type make no entry and no fault; names are cut to their limits", () => {
    const odd = [
      { type: "user", message: "not an object" },
      { type: "user", message: { content: 42 } },
      {
        type: "assistant",
        message: { content: [null, 7, { type: "tool_use", name: ["x"], input: undefined }] },
      },
      { type: "response_item", payload: [] },
      { type: "message", message: { role: "toolResult", content: null, toolName: "t".repeat(500) } },
    ];
    const made = odd.flatMap((line) => [
      ...claudeCodeEntries(line as Record<string, unknown>),
      ...codexEntries(line as Record<string, unknown>),
      ...piEntries(line as Record<string, unknown>),
    ]);
    assert.deepEqual(made, [
      { kind: "tool-call", at: null, text: "null" },
      { kind: "tool-result", at: null, text: "", tool: "t".repeat(LIMITS.tool) },
    ]);
  });
});

describe("pages of a record file", () => {
  const dir = mkdtempSync(join(tmpdir(), "roost-transcript-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const record = (text: string) => {
    const file = join(dir, `record-${++n}.jsonl`);
    writeFileSync(file, text);
    return file;
  };
  const user = (text: string) =>
    JSON.stringify({ type: "message", message: { role: "user", content: text } });

  test("a partial last line and an unknown kind make no entry; the line completed, the next page has it", async () => {
    const file = record(
      `${user("one")}\n{"type":"mystery","x":1}\nnot json\n{"type":"message","message":{"role":"us`,
    );
    const first = await readPage(file, piEntries, null, LIMITS.transcriptEntries);
    assert.deepEqual(
      first.entries.map((e) => e.text),
      ["one"],
    );
    assert.equal(first.more, false);
    appendFileSync(file, `er","content":"two"}}\n`);
    const next = await readPage(file, piEntries, parseCursor(first.cursor), LIMITS.transcriptEntries);
    assert.deepEqual(
      next.entries.map((e) => e.text),
      ["two"],
    );
    const none = await readPage(file, piEntries, parseCursor(next.cursor), LIMITS.transcriptEntries);
    assert.deepEqual(none.entries, []);
    assert.equal(none.cursor, next.cursor);
  });

  test("a page of `limit` entries ends inside a line of several; the next starts with its next entry", async () => {
    const blocks = ["a", "b", "c"].map((text) => ({ type: "text", text }));
    const file = record(
      `${lines({ type: "assistant", message: { content: blocks } }, { type: "user", message: { content: "d" } })}\n`,
    );
    const texts: string[][] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await readPage(file, claudeCodeEntries, parseCursor(cursor), 2);
      texts.push(page.entries.map((e) => e.text));
      cursor = page.cursor;
      if (!page.more) break;
    }
    assert.deepEqual(texts, [
      ["a", "b"],
      ["c", "d"],
    ]);
  });

  test("the entries of a page are in the order of their times: Claude Code writes a first message after its answer", async () => {
    const turn = (type: string, timestamp: string | undefined, text: string) => ({
      type,
      ...(timestamp ? { timestamp } : {}),
      message: { content: [{ type: "text", text }] },
    });
    const file = record(
      `${lines(
        turn("assistant", "2026-12-04T02:08:10.414Z", "the answer"),
        turn("assistant", undefined, "its next block"),
        turn("user", "2026-12-04T02:08:09.791Z", "the first message"),
        turn("user", "2026-12-04T02:08:11.997Z", "the next message"),
      )}\n`,
    );
    const page = await readPage(file, claudeCodeEntries, null, 10);
    assert.deepEqual(
      page.entries.map((e) => e.text),
      ["the first message", "the answer", "its next block", "the next message"],
    );
  });

  test("a text of 16,000 characters is whole; one more and it is cut, saying how long it was", async () => {
    const file = record(
      `${user("x".repeat(LIMITS.transcriptText))}\n${user("y".repeat(LIMITS.transcriptText + 1))}\n`,
    );
    const [whole, cut] = (await readPage(file, piEntries, null, 10)).entries;
    assert.equal(whole!.text.length, LIMITS.transcriptText);
    assert.equal(whole!.cut, undefined);
    assert.equal(cut!.text, "y".repeat(LIMITS.transcriptText));
    assert.equal(cut!.cut, LIMITS.transcriptText + 1);
  });

  test("a page carries at most 1 MiB of entries: exactly 1 MiB fits, one byte more waits for the next page", async () => {
    // Each entry's JSON is 8 KiB: 128 of them are 1 MiB exactly.
    const overhead = JSON.stringify({ kind: "user", at: null, text: "" }).length;
    const entry = (extra: number) => user("z".repeat(8192 - overhead + extra));
    const exact = record(`${Array.from({ length: 129 }, () => entry(0)).join("\n")}\n`);
    const full = await readPage(exact, piEntries, null, LIMITS.transcriptEntries);
    assert.equal(full.entries.length, 128);
    assert.equal(Buffer.byteLength(JSON.stringify(full.entries)) - 129, LIMITS.transcriptBytes);
    assert.equal(full.more, true);
    const rest = await readPage(exact, piEntries, parseCursor(full.cursor), LIMITS.transcriptEntries);
    assert.equal(rest.entries.length, 1);
    assert.equal(rest.more, false);
    const over = record(`${[entry(1), ...Array.from({ length: 128 }, () => entry(0))].join("\n")}\n`);
    assert.equal((await readPage(over, piEntries, null, LIMITS.transcriptEntries)).entries.length, 127);
  });

  test("a page reads about 8 MiB of the record at most: lines that make no entry are paged through too", async () => {
    const filler = JSON.stringify({
      type: "event_msg",
      payload: { type: "noise", text: "n".repeat(64 * 1024) },
    });
    const count = Math.ceil((READ_BUDGET_BYTES * 1.5) / filler.length);
    const file = record(`${Array.from({ length: count }, () => filler).join("\n")}\n${user("at last")}\n`);
    const first = await readPage(file, piEntries, null, LIMITS.transcriptEntries);
    assert.deepEqual(first.entries, []);
    assert.equal(first.more, true);
    const second = await readPage(file, piEntries, parseCursor(first.cursor), LIMITS.transcriptEntries);
    assert.deepEqual(
      second.entries.map((e) => e.text),
      ["at last"],
    );
    assert.equal(second.more, false);
  });

  test("a record replaced or cut short is read again from its start, and the page says so", async () => {
    const file = record(`${user("old one")}\n${user("old two")}\n`);
    const first = await readPage(file, piEntries, null, LIMITS.transcriptEntries);
    assert.equal(first.restarted, false);
    const replacement = join(dir, "replacement.jsonl");
    writeFileSync(replacement, `${user("new one")}\n${user("new two")}\n${user("new three")}\n`);
    renameSync(replacement, file);
    const replaced = await readPage(file, piEntries, parseCursor(first.cursor), LIMITS.transcriptEntries);
    assert.equal(replaced.restarted, true);
    assert.deepEqual(
      replaced.entries.map((e) => e.text),
      ["new one", "new two", "new three"],
    );
    writeFileSync(file, `${user("short")}\n`);
    const cut = await readPage(file, piEntries, parseCursor(replaced.cursor), LIMITS.transcriptEntries);
    assert.equal(cut.restarted, true);
    assert.deepEqual(
      cut.entries.map((e) => e.text),
      ["short"],
    );
  });

  test("a record not there: no entries, the cursor kept, said missing", async () => {
    const page = await readPage(join(dir, "none.jsonl"), piEntries, parseCursor("12:34:0"), 10);
    assert.deepEqual(page, { entries: [], cursor: "12:34:0", more: false, restarted: false, missing: true });
  });
});
