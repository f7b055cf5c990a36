// The real Claude Code and Codex as terminal agents, offline against fake model servers: their
// transcripts, read from their own session records, are what the model was sent and answered (the
// person's tasks, the answers, a shell call and its result), in pages from a cursor, through the op
// and `roost transcript` (its --json, its lines, --follow as the conversation goes on).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { after, describe, test } from "node:test";
import { CLI, type Message, waitFor } from "./helpers/daemon.js";
import { type FakeModel, type Said, startFakeAnthropic, startFakeResponses } from "./helpers/fake-models.js";
import { claudeProfile, cliProgram, codexProfile, projectFolder, realCliSuite } from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

interface Case {
  name: "claude" | "codex";
  model: () => Promise<FakeModel>;
  profile: (program: string, modelUrl: string, trusted: string[]) => { env: Record<string, string> };
  /** The choice of its permission dialog that runs the command. */
  yes: string;
}

const CASES: Case[] = [
  { name: "claude", model: startFakeAnthropic, profile: claudeProfile, yes: "Yes" },
  { name: "codex", model: startFakeResponses, profile: codexProfile, yes: "Yes, proceed" },
];

const START_MS = 60_000;

/** An entry as the fake model saw it: a call's input as the object it sent. */
function asSaid(entry: Message): Said {
  if (entry.kind === "tool-call")
    return { kind: "tool-call", tool: entry.tool, input: JSON.parse(entry.text) };
  return { kind: entry.kind, text: entry.text };
}

for (const c of CASES) {
  const found = cliProgram(c.name);
  describe(`${c.name}: its transcript from its session record`, {
    skip: "skip" in found ? found.skip : false,
  }, () => {
    let cwd = "";
    const s = realCliSuite(c.name, (found as { program: string }).program, c.model, c.profile, () => [
      (cwd = projectFolder()),
    ]);
    after(() => {
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    const transcript = async (id: string, after?: string) => {
      const answer = await s.conn.request("transcript", { id, ...(after !== undefined ? { after } : {}) });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      return answer.result;
    };
    /** The transcript once it holds `count` entries (the record is written as the turn goes). */
    const transcriptOf = (id: string, count: number, after?: string) =>
      waitFor(
        `${count} entries`,
        async () => {
          const page = await transcript(id, after);
          return page.entries.length >= count ? page : undefined;
        },
        START_MS,
      );

    test("the task and the answer, then a shell call, its result and the answer: as the model was sent and answered them", async () => {
      const answer = await s.conn.request("dispatch", { profile: c.name, task: "TASK say hello", cwd });
      const id = answer.result.id as string;
      await rowWhen(s.conn, id, (r) => r.state === "done" && r.summary === "ANSWER: say hello", START_MS);
      const first = await transcriptOf(id, 2);
      assert.equal(first.program, c.name);
      assert.equal(first.more, false);
      assert.deepEqual(first.entries.map(asSaid), s.model.said);
      assert.deepEqual(s.model.said, [
        { kind: "user", text: "TASK say hello" },
        { kind: "assistant", text: "ANSWER: say hello" },
      ]);
      for (const entry of first.entries)
        assert.ok(!Number.isNaN(Date.parse(entry.at)), JSON.stringify(entry));

      await s.conn.request("reply", { id, text: "RUN echo hi > yes.txt" });
      await rowWhen(s.conn, id, (r) => r.state === "blocked" && /yes\.txt/.test(r.question ?? ""), START_MS);
      await s.conn.request("reply", { id, text: c.yes });
      await rowWhen(
        s.conn,
        id,
        (r) => r.state === "done" && r.summary === "ANSWER: the command ran",
        START_MS,
      );
      // From the first page's cursor: only what came since.
      const next = await transcriptOf(id, 4, first.cursor);
      assert.equal(next.restarted, false);
      assert.deepEqual(next.entries.map(asSaid), s.model.said.slice(2));
      assert.deepEqual(
        next.entries.map((e: Message) => e.kind),
        ["user", "tool-call", "tool-result", "assistant"],
      );
      const [, call, result] = next.entries;
      assert.equal(result.callId, call.callId, "the result names the call it answers");

      // The command: one JSON object a line, the same entries; in lines, each with who said it.
      const json = await s.daemon.cli(["transcript", id, "--json"]);
      assert.equal(json.code, 0, json.stderr);
      const printed = json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      assert.deepEqual(printed, [...first.entries, ...next.entries]);
      const text = await s.daemon.cli(["transcript", id]);
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.trimEnd().split("\n");
      assert.match(lines[0]!, /^\d\d:\d\d:\d\d {2}you {11}TASK say hello$/);
      assert.match(lines[1]!, new RegExp(`^\\d\\d:\\d\\d:\\d\\d  ${c.name} +ANSWER: say hello$`));
      // A heading longer than its column (`→ exec_command`) has its line, the text under it.
      assert.match(text.stdout, new RegExp(`  → ${call.tool}\\s+\\{.*echo hi > yes\\.txt`));
      assert.match(text.stdout, / {2}← result {6}\S/);
    });

    test("--follow prints what comes next as the conversation goes on", async () => {
      const answer = await s.conn.request("dispatch", { profile: c.name, task: "TASK first words", cwd });
      const id = answer.result.id as string;
      await rowWhen(s.conn, id, (r) => r.state === "done" && r.summary === "ANSWER: first words", START_MS);
      const follow = spawn(process.execPath, [CLI, "transcript", id, "--follow", "--json"], {
        env: { ...process.env, ROOST_HOME: s.daemon.home },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      follow.stdout.on("data", (d) => (out += d));
      const exited = new Promise((resolve) => follow.on("close", resolve));
      const printed = () =>
        out
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line).text as string);
      try {
        await waitFor(
          "the transcript so far",
          async () => (printed().length >= 2 ? true : undefined),
          START_MS,
        );
        await s.conn.request("reply", { id, text: "TASK more words" });
        await waitFor(
          "the new entries",
          async () => (printed().includes("ANSWER: more words") ? true : undefined),
          START_MS,
        );
        assert.deepEqual(printed(), [
          "TASK first words",
          "ANSWER: first words",
          "TASK more words",
          "ANSWER: more words",
        ]);
        assert.equal(follow.exitCode, null, "still following");
      } finally {
        follow.kill();
        await exited;
      }
    });
  });
}
