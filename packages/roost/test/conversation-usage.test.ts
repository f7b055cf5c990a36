// The real Claude Code and Codex as terminal agents, offline against fake model servers that report
// known token counts (10 input and 5 output tokens an answer): each row's model, usage and context
// are read from the program's own session record, and its session id is kept in the store.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, test } from "node:test";
import type { Message } from "./helpers/daemon.js";
import { type FakeModel, startFakeAnthropic, startFakeResponses } from "./helpers/fake-models.js";
import { claudeProfile, cliProgram, codexProfile, projectFolder, realCliSuite } from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

interface Case {
  name: "claude" | "codex";
  model: () => Promise<FakeModel>;
  profile: (program: string, modelUrl: string, trusted: string[]) => { env: Record<string, string> };
  /** The model its record names, and its context window. */
  modelName: string;
  window: number;
}

const CASES: Case[] = [
  {
    name: "claude",
    model: startFakeAnthropic,
    profile: claudeProfile,
    modelName: "claude-fake",
    window: 200_000,
  },
  {
    name: "codex",
    model: startFakeResponses,
    profile: codexProfile,
    modelName: "fake-model",
    window: 258_400,
  },
];

const START_MS = 60_000;
/** What the fake servers report for each answer. */
const PER_ANSWER = { input: 10, output: 5 };

const usageAfter = (answers: number) => ({
  input: PER_ANSWER.input * answers,
  output: PER_ANSWER.output * answers,
  cacheRead: 0,
  cacheWrite: 0,
});

for (const c of CASES) {
  const found = cliProgram(c.name);
  describe(`${c.name}: usage from its session record`, { skip: "skip" in found ? found.skip : false }, () => {
    let cwd = "";
    const s = realCliSuite(c.name, (found as { program: string }).program, c.model, c.profile, () => [
      (cwd = projectFolder()),
    ]);
    after(() => {
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    const usageIs = (answers: number) => (r: Message) =>
      JSON.stringify(r.usage) === JSON.stringify(usageAfter(answers));

    test("the row carries the model, the tokens the server sent and the context; the session id is kept across a daemon restart", async () => {
      const answer = await s.conn.request("dispatch", { profile: c.name, task: "TASK say hello", cwd });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      const id = answer.result.id as string;
      const first = await rowWhen(s.conn, id, usageIs(1), START_MS);
      assert.equal(first.model, c.modelName);
      assert.deepEqual(first.context, {
        tokens: PER_ANSWER.input + PER_ANSWER.output,
        window: c.window,
        percent: Math.round(((PER_ANSWER.input + PER_ANSWER.output) / c.window) * 1000) / 10,
      });
      assert.equal(first.conversation.program, c.name);
      assert.equal(first.conversation.read, true);
      const sessionId = first.conversation.sessionId as string;
      assert.match(sessionId, /^[0-9a-f-]{36}$/);
      const described = (await s.conn.request("describe", { id })).result;
      if (c.name === "claude") {
        // Chosen up front: the command names it.
        const at = described.command.indexOf("--session-id");
        assert.equal(described.command[at + 1], sessionId, JSON.stringify(described.command));
      }

      await rowWhen(s.conn, id, (r) => r.state === "done" && r.summary === "ANSWER: say hello", START_MS);
      const reply = await s.conn.request("reply", { id, text: "TASK say more" });
      assert.equal(reply.ok, true, JSON.stringify(reply));
      await rowWhen(s.conn, id, usageIs(2), START_MS);
      assert.deepEqual(s.model.tasks, ["TASK say hello", "TASK say more"]);

      // The daemon goes and comes back: the row has its session id and its usage from the store at
      // once, and the record read again from its start adds up to the same.
      s.conn.close();
      await s.daemon.kill();
      await s.daemon.start();
      s.conn = await s.daemon.connect();
      const back = ((await s.conn.request("list")).result.rows as Message[]).find((r) => r.id === id)!;
      assert.equal(back.conversation.sessionId, sessionId);
      assert.deepEqual(back.usage, usageAfter(2));
      await s.conn.request("reply", { id, text: "TASK once more" });
      await rowWhen(s.conn, id, usageIs(3), START_MS);
    });

    test("a second job in the same folder reads its own record, not the first one's", async () => {
      const answer = await s.conn.request("dispatch", { profile: c.name, task: "TASK second job", cwd });
      const id = answer.result.id as string;
      const row = await rowWhen(s.conn, id, usageIs(1), START_MS);
      const rows = (await s.conn.request("list")).result.rows as Message[];
      const other = rows.find((r) => r.id !== id && r.conversation?.program === c.name)!;
      assert.notEqual(row.conversation.sessionId, other.conversation.sessionId);
    });
  });
}
