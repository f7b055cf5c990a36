// The real Claude Code, Codex and pi, each in a git worktree of its own, offline against fake model
// servers: the worktree's trust screen waits for the person (pi has none), the agent writes a file
// through its own tool call once allowed (pi asks no one), and the row's counts and `roost diff` show
// that file, the main checkout untouched.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Message } from "./helpers/daemon.js";
import { startFakeAnthropic, startFakeChatCompletions, startFakeResponses } from "./helpers/fake-models.js";
import { git, makeRepository } from "./helpers/git-repo.js";
import { claudeProfile, cliProgram, codexProfile, piProfile, realCliSuite } from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

/** `asks`: the trust screen's answer and the permission dialog's yes; null: it asks neither. */
const CASES = [
  {
    name: "claude",
    model: startFakeAnthropic,
    profile: claudeProfile,
    asks: { trust: "Yes, I trust this folder", yes: "Yes" },
  },
  {
    name: "codex",
    model: startFakeResponses,
    profile: codexProfile,
    asks: { trust: "Trust and continue", yes: "Yes, proceed" },
  },
  { name: "pi", model: startFakeChatCompletions, profile: piProfile, asks: null },
] as const;

/** A CLI takes a few seconds to start on a loaded machine. */
const START_MS = 60_000;

for (const c of CASES) {
  const found = cliProgram(c.name);
  if ("skip" in found) console.log(`# real ${c.name} worktree test skipped: ${found.skip}`);
  describe(`${c.name} in a worktree of its own`, { skip: "skip" in found ? found.skip : false }, () => {
    // No folder trusted: the worktree is a new folder, and the agent asks to trust it.
    const s = realCliSuite(c.name, (found as { program: string }).program, c.model, c.profile);

    test("writes a file through its tool call in its worktree: the row counts it, roost diff shows it", async () => {
      const repo = makeRepository({ "README.md": "the project\n" }, s.daemon.home);
      const answer = await s.conn.request("dispatch", {
        profile: c.name,
        task: "RUN echo from-the-agent > agent.txt",
        cwd: repo,
        worktree: true,
      });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      const id = answer.result.id as string;
      const asks = c.asks;
      if (asks) {
        const trust = await rowWhen(s.conn, id, (r: Message) => r.choices.includes(asks.trust), START_MS);
        assert.equal(trust.worktree.branch, `roost/${answer.result.name}`);
        assert.notEqual(trust.cwd, repo, "it runs in its worktree");
        // As the hub sends it, with the question shown: an answer to a screen gone by is held, not typed.
        const trusted = await s.conn.request("reply", { id, text: asks.trust, question: trust.question });
        assert.equal(trusted.result?.saved, true, JSON.stringify(trusted));
        const asking = await rowWhen(
          s.conn,
          id,
          (r: Message) => r.state === "blocked" && /agent\.txt/.test(r.question ?? ""),
          START_MS,
        );
        const yes = await s.conn.request("reply", { id, text: asks.yes, question: asking.question });
        assert.equal(yes.result?.saved, true, JSON.stringify(yes));
      }
      const counted = await rowWhen(
        s.conn,
        id,
        (r: Message) => r.worktree?.files === 1 && r.worktree.uncommitted === 1,
        START_MS,
      );
      assert.equal(counted.worktree.added, 1);
      assert.equal(counted.worktree.branch, `roost/${answer.result.name}`);
      assert.notEqual(counted.cwd, repo, "it runs in its worktree");
      assert.equal(readFileSync(join(counted.cwd, "agent.txt"), "utf8"), "from-the-agent\n");
      assert.equal(existsSync(join(repo, "agent.txt")), false, "the main checkout is untouched");
      assert.equal(git(repo, "status", "--porcelain"), "");
      const diff = await s.daemon.cli(["diff", id]);
      assert.equal(diff.code, 0, diff.stderr);
      assert.match(diff.stdout, /^ agent\.txt {2}\+1 −0$/m);
      assert.match(diff.stdout, /^\+from-the-agent$/m);
    });
  });
}
