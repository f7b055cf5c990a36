// How a program is started resuming its conversation, and a profile's `resume` as roost.json's check
// takes it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  claudeResumeArgv,
  codexResumeArgv,
  profileResumeArgv,
  withSessionId,
} from "../src/daemon/conversations/resume-argv.js";
import { loadProfiles } from "../src/home/profiles.js";

const dir = mkdtempSync(join(tmpdir(), "roost-resume-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("Claude Code resumes with --resume in place of the --session-id it was first given", () => {
  assert.deepEqual(claudeResumeArgv(["claude", "--session-id", "a", "--model", "m"], "a"), [
    "claude",
    "--resume",
    "a",
    "--model",
    "m",
  ]);
  assert.deepEqual(claudeResumeArgv(["claude", "--model", "m"], "b"), [
    "claude",
    "--resume",
    "b",
    "--model",
    "m",
  ]);
  assert.deepEqual(withSessionId(["claude", "--session-id", "a", "x"], "c"), [
    "claude",
    "--session-id",
    "c",
    "x",
  ]);
  assert.deepEqual(profileResumeArgv(["aider", "--yes"], ["--restore-chat-history"]), [
    "aider",
    "--restore-chat-history",
    "--yes",
  ]);
});

test("Codex resumes with its resume subcommand after the program's name, its options after it", () => {
  assert.deepEqual(codexResumeArgv(["codex"], "01a2"), ["codex", "resume", "01a2"]);
  assert.deepEqual(codexResumeArgv(["/opt/codex", "-c", 'model="o3"'], "01a2"), [
    "/opt/codex",
    "resume",
    "01a2",
    "-c",
    'model="o3"',
  ]);
});

function profilesWith(profile: object) {
  const file = join(dir, "roost.json");
  writeFileSync(file, JSON.stringify({ agentProfiles: { mine: profile } }));
  return () => loadProfiles(file);
}

test("a profile's resume: a non-empty array of non-empty strings, with an argv command", () => {
  assert.deepEqual(profilesWith({ command: ["aider"], resume: ["--continue"] })().get("mine")?.resume, [
    "--continue",
  ]);
  for (const resume of [[], [""], "--continue", [1]])
    assert.throws(
      profilesWith({ command: ["aider"], resume }),
      /agentProfiles\.mine\.resume must be a non-empty array/,
    );
  assert.throws(
    profilesWith({ command: "aider", resume: ["--continue"] }),
    /resume must be given with a command that is an array/,
  );
});
