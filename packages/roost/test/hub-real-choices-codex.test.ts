// The hub over Codex's approval (the CLI offline against the test's fake model server) at
// 120×35: the command and its choices are on the screen before a digit acts.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { waitFor } from "./helpers/daemon.js";
import { type FakeModel, startFakeResponses } from "./helpers/fake-models.js";
import { type ChoicesHub, START_MS, startChoicesHub } from "./helpers/real-choices.js";
import { cliProgram, codexProfile } from "./helpers/real-clis.js";

const codex = cliProgram("codex");

describe("the hub's one-key picks over Codex", { skip: "skip" in codex && codex.skip }, () => {
  let responses: FakeModel;
  let c: ChoicesHub;

  before(async () => {
    responses = await startFakeResponses();
    const program = (codex as { program: string }).program;
    c = await startChoicesHub((folder) => ({ codex: codexProfile(program, responses.url, [folder]) }));
  });

  after(async () => {
    await c?.close();
    await responses?.close();
  });

  test("Codex at 120×35: its approval's command and choices show when selected; 1 runs it", async () => {
    const { h } = c;
    h.terminal.resize(120, 35);
    const id = await c.dispatch("codex", "TASK say hello");
    await h.waitForScreen("codex done", (s) => /✓ codex +done +ANSWER: say hello/.test(s), START_MS);
    await h.raw.request("reply", { id, text: "RUN echo hi > yes.txt" });
    await h.waitForScreen("codex asks", (s) => /\? codex +waiting/.test(s), START_MS);
    await c.selectWaiting("codex");
    const asking = await h.waitForScreen(
      "its choices",
      (s) => /\b1 Yes, proceed\b/.test(s) && /\b3 No, and tell Codex/.test(s),
    );
    assert.match(asking, /\$ echo hi > yes\.txt/);
    h.terminal.type("1");
    await waitFor("yes.txt", async () => existsSync(join(c.folder, "yes.txt")) || undefined, START_MS);
  });
});
