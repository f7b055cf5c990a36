// The hub over Claude Code's permission dialog (the CLI offline against the test's fake model
// server) at 80×24: its choices are on the screen before a digit acts (a digit for a choice not
// shown is refused in hub-ask-lines.test.ts), and idle at its prompt it reads done and is not
// counted as waiting.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type FakeModel, startFakeAnthropic } from "./helpers/fake-models.js";
import { type ChoicesHub, START_MS, startChoicesHub } from "./helpers/real-choices.js";
import { claudeProfile, cliProgram } from "./helpers/real-clis.js";

const claude = cliProgram("claude");

describe("the hub's one-key picks over Claude Code", { skip: "skip" in claude && claude.skip }, () => {
  let anthropic: FakeModel;
  let c: ChoicesHub;

  before(async () => {
    anthropic = await startFakeAnthropic();
    const program = (claude as { program: string }).program;
    c = await startChoicesHub((folder) => ({ claude: claudeProfile(program, anthropic.url, [folder]) }));
  });

  after(async () => {
    await c?.close();
    await anthropic?.close();
  });

  test("Claude Code at 80×24: idle it is done; its dialog's choices show when selected; the details list them; 3 is No", async () => {
    const { h } = c;
    const id = await c.dispatch("claude", "TASK say hello");
    const idle = await h.waitForScreen(
      "claude done",
      (s) => /✓ claude +done +ANSWER: say hello/.test(s),
      START_MS,
    );
    assert.doesNotMatch(idle.split("\n")[0]!, /waiting/, "an idle session is not counted as waiting");
    await h.raw.request("reply", { id, text: "RUN echo hi > no.txt" });
    await h.waitForScreen("claude asks", (s) => /\? claude +waiting/.test(s), START_MS);
    await c.selectWaiting("claude");
    const asking = await h.waitForScreen("its choices", (s) => /\b1 Yes\b/.test(s) && /\b3 No\b/.test(s));
    assert.match(asking, /Do you want to/);
    // The details show the whole question and every choice with its key.
    h.terminal.type("i");
    const details = await h.waitForScreen(
      "the details",
      (s) => s.includes("· details") && /choices +1 Yes/.test(s),
    );
    assert.match(details, /│ +3 No +│/);
    h.terminal.type("\x1b");
    // Shown again in the list: 3 picks No.
    await h.waitForScreen("the choices again", (s) => /\b3 No\b/.test(s));
    h.terminal.type("3");
    const refused = await h.waitForScreen(
      "the row after No",
      // At 80 columns the row's model and context leave the summary its start.
      (s) => /✓ claude +done +refused: Bash\(echo hi > no/.test(s),
      START_MS,
    );
    assert.match((await c.row(id)).summary ?? "", /refused: Bash\(echo hi > no\.txt\)/);
    assert.doesNotMatch(refused.split("\n")[0]!, /waiting/);
    assert.equal(existsSync(join(c.folder, "no.txt")), false, '"No" ran the command');
  });
});
