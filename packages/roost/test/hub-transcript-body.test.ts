// The hub's transcript view as pure functions: what it keeps of the pages read (2000 entries at
// most, the rest counted), and each entry as lines: its heading, its text wrapped and made safe.
import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { newTranscript, TRANSCRIPT_KEPT, takePage } from "../src/hub/transcript-follow.js";
import { transcriptBody } from "../src/hub/transcript-view.js";
import type { TranscriptEntry, TranscriptResult } from "../src/protocol/index.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");
const AT = "2026-12-04T01:38:42.634Z";
const said = (text: string): TranscriptEntry => ({ kind: "user", at: AT, text });
const page = (entries: TranscriptEntry[], extra: Partial<TranscriptResult> = {}): TranscriptResult => ({
  program: "claude",
  file: "/tmp/record.jsonl",
  entries,
  cursor: "1:2:0",
  more: false,
  restarted: false,
  ...extra,
});

test("2000 entries are kept whole; the next drops the oldest, and the view says how many it left out", () => {
  const transcript = newTranscript("j1");
  const many = Array.from({ length: TRANSCRIPT_KEPT }, (_, i) => said(`m${i}`));
  assert.equal(takePage(transcript, page(many, { more: true })), true);
  assert.equal(transcript.entries.length, TRANSCRIPT_KEPT);
  assert.equal(transcript.dropped, 0);
  assert.equal(transcript.loaded, false);
  takePage(transcript, page([said("one more")]));
  assert.equal(transcript.entries.length, TRANSCRIPT_KEPT);
  assert.equal(transcript.dropped, 1);
  assert.equal(transcript.entries[0]!.text, "m1");
  assert.equal(transcript.loaded, true);
  assert.match(
    plain(transcriptBody(transcript, "fixer", 80)[0]!),
    /^ … 1 earlier entries not shown here: roost transcript fixer prints them all$/,
  );
  // Nothing new: nothing to draw again. A conversation started anew: what was read is void.
  assert.equal(takePage(transcript, page([])), false);
  takePage(transcript, page([said("fresh")], { restarted: true }));
  assert.deepEqual(
    transcript.entries.map((e) => e.text),
    ["fresh"],
  );
  assert.equal(transcript.dropped, 0);
});

test("each entry: its time and who said it, then its text wrapped under it, escape sequences gone", () => {
  const transcript = newTranscript("j1");
  takePage(
    transcript,
    page([
      said("fix \x1b]0;pwned\x07the\x1b[2J docs"),
      { kind: "tool-call", at: AT, text: '{"command":"ls"}', tool: "Bash", callId: "t1" },
      { kind: "tool-result", at: AT, text: "denied", callId: "t1", error: true },
      {
        kind: "agent-message",
        at: AT,
        text: "state: done",
        from: "kid\x1b[31m",
        relation: "child",
        delivery: "report",
      },
      { kind: "assistant", at: null, text: `${"word ".repeat(30)}end`, cut: 20_000 },
    ]),
  );
  const lines = transcriptBody(transcript, "fixer", 40).map(plain);
  assert.deepEqual(
    lines.slice(0, 8).map((l) => l.replace(/\d\d:\d\d:\d\d/, "TIME")),
    [
      " TIME you",
      "   fix the docs",
      " TIME → Bash",
      '   {"command":"ls"}',
      " TIME ← result ✗",
      "   denied",
      " TIME ✉ report from kid (child)",
      "   state: done",
    ],
  );
  assert.equal(lines[8], "          claude");
  assert.ok(
    lines.slice(9).every((l) => visibleWidth(l) <= 38 && l.startsWith("   ")),
    lines.join("\n"),
  );
  assert.match(lines.slice(-2).join(""), /^ {3}… 19847 more characters not shown {3}\(20000 in all\)$/);
  assert.ok(!lines.join("\n").includes("\x1b"));
});

test("before its first page, with none, and when a read fails", () => {
  const transcript = newTranscript("j1");
  assert.deepEqual(transcriptBody(transcript, "fixer", 80).map(plain), [" asking the daemon…"]);
  takePage(transcript, page([]));
  assert.match(plain(transcriptBody(transcript, "fixer", 80)[0]!), /nothing in its transcript yet/);
  transcript.error = "unsupported: fixer keeps no transcript roost reads";
  assert.deepEqual(transcriptBody(transcript, "fixer", 80).map(plain), [
    " unsupported: fixer keeps no transcript roost reads · trying again",
  ]);
});
