// Claude Code and Codex jobs take up their conversations: after the daemon, the process host and
// the program went down together, a reply starts the program resuming, and the request that reaches
// the fake model carries the earlier turn. A conversation whose record is gone starts fresh with
// the row saying so.
import assert from "node:assert/strict";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { type Message, waitFor } from "./helpers/daemon.js";
import { type FakeModel, startFakeAnthropic, startFakeResponses } from "./helpers/fake-models.js";
import {
  answered,
  askJob,
  claudeProfile,
  cliProgram,
  codexProfile,
  projectFolder,
  realCliSuite,
} from "./helpers/real-clis.js";
import { reboot } from "./helpers/reboot.js";
import { rowWhen } from "./helpers/terminal.js";

interface Case {
  name: "claude" | "codex";
  model: () => Promise<FakeModel>;
  profile: (program: string, modelUrl: string, trusted: string[]) => { env: Record<string, string> };
}

const CASES: Case[] = [
  { name: "claude", model: startFakeAnthropic, profile: claudeProfile },
  { name: "codex", model: startFakeResponses, profile: codexProfile },
];

const START_MS = 60_000;

/** The session records under `dir` whose name has `text` in it. */
function filesNamed(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((file) => file.endsWith(".jsonl") && file.includes(text) && statSync(file).isFile());
}

for (const c of CASES) {
  const found = cliProgram(c.name);
  describe(`${c.name}: conversations resume`, { skip: "skip" in found ? found.skip : false }, () => {
    let cwd = "";
    let id: string;
    const s = realCliSuite(c.name, (found as { program: string }).program, c.model, c.profile, () => [
      (cwd = projectFolder()),
    ]);
    after(() => {
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    /** The conversation the model was given with `task`. */
    const turnOf = (task: string) => s.model.turns[s.model.tasks.lastIndexOf(`TASK ${task}`)] ?? "";
    const ask = (task: string) => askJob(s.conn, id, task, START_MS);

    /** Every roost process and the program killed together (a crash of all of it), then the daemon back. */
    async function crashAll(): Promise<void> {
      s.conn.close();
      assert.equal((await reboot(s.daemon)).length, 1, "the program was killed");
      s.conn = await s.daemon.connect();
      await rowWhen(s.conn, id, (r) => r.lifecycle === "interrupted", START_MS);
    }

    test("the daemon, the process host and the program killed together: a reply resumes the conversation, the model is given the earlier turn", async () => {
      const answer = await s.conn.request("dispatch", { profile: c.name, task: "TASK remember apple", cwd });
      id = answer.result.id;
      // Its record holds the turn (the program writes it as it goes): there is something to resume.
      const first = await rowWhen(
        s.conn,
        id,
        (r) => answered("remember apple")(r) && r.usage !== null,
        START_MS,
      );
      assert.equal(first.restart, "resumes");
      assert.equal(first.resume, null, "a first start resumes nothing");
      await crashAll();
      const row = await ask("after the crash");
      assert.deepEqual(row.resume, { resumed: true, note: null });
      assert.equal(row.conversation.sessionId, first.conversation.sessionId);
      assert.match(turnOf("after the crash"), /remember apple/);
    });

    test("a conversation whose record is gone starts fresh, and the row says why", async () => {
      const row = await rowWhen(s.conn, id, (r) => r.conversation?.read && r.usage !== null, START_MS);
      const records = filesNamed(s.profile.env.HOME!, row.conversation.sessionId);
      assert.equal(records.length, 1, JSON.stringify(records));
      await crashAll();
      rmSync(records[0]!);
      const after = await ask("record gone");
      assert.equal(after.resume.resumed, false);
      assert.match(after.resume.note, /^started fresh: its conversation's record is gone/);
      assert.doesNotMatch(turnOf("record gone"), /remember apple/);
      await waitFor(
        "a new conversation",
        async () => {
          const now = ((await s.conn.request("list")).result.rows as Message[]).find((r) => r.id === id)!;
          return now.conversation.sessionId && now.conversation.sessionId !== row.conversation.sessionId
            ? true
            : undefined;
        },
        START_MS,
      );
    });
  });
}
