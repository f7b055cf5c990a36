// The hub over real agents that ask: Claude Code's and Codex's permission dialogs (the CLIs offline
// against the test's fake model servers) and a `warren play` row, at 80×24 and 120×35. Their
// choices are on the screen before a digit acts (a digit for a choice not shown is refused in
// hub-ask-lines.test.ts); idle
// at their prompts, the CLIs read done and are not counted as waiting.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { waitFor } from "./helpers/daemon.js";
import { type FakeModel, startFakeAnthropic, startFakeResponses } from "./helpers/fake-models.js";
import { type HubHarness, startHubHarness } from "./helpers/hub-harness.js";
import { claudeProfile, cliProgram, codexProfile, projectFolder } from "./helpers/real-clis.js";

/** warren's command, named by its path as the demo does (roost itself knows nothing of warren). */
const WARREN = fileURLToPath(new URL("../../warren/bin/warren.js", import.meta.url));
const START_MS = 90_000;
const TAB = "\t";

const claude = cliProgram("claude");
const codex = cliProgram("codex");
const skip =
  "skip" in claude
    ? claude.skip
    : "skip" in codex
      ? codex.skip
      : existsSync(WARREN)
        ? false
        : "warren is not built (npm run build at the root builds it)";

/** `warren serve --port 0`, and its URL once it listens. */
async function warrenServe(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [WARREN, "serve", "--port", "0", "--no-persist"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let text = "";
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { url, child };
  }
  throw new Error(`warren serve did not start: ${text}`);
}

describe("the hub's one-key picks over real agents", { skip }, () => {
  let anthropic: FakeModel;
  let responses: FakeModel;
  let warren: { url: string; child: ChildProcess };
  let folder: string;
  let h: HubHarness;

  before(async () => {
    [anthropic, responses, warren] = await Promise.all([
      startFakeAnthropic(),
      startFakeResponses(),
      warrenServe(),
    ]);
    folder = projectFolder();
    const agentProfiles = {
      claude: claudeProfile((claude as { program: string }).program, anthropic.url, [folder]),
      codex: codexProfile((codex as { program: string }).program, responses.url, [folder]),
      "warren-play": {
        command: ["/bin/sh", "-c", 'exec "$0" "$1" play $2', process.execPath, WARREN],
        task: "argv",
        protocol: true,
      },
    };
    h = await startHubHarness(80, 24, { config: { agentProfiles } });
  });

  after(async () => {
    await h?.close();
    warren?.child.kill("SIGKILL");
    await anthropic?.close();
    await responses?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const row = async (id: string) =>
    ((await h.raw.request("list")).result.rows as { id: string; [k: string]: unknown }[]).find(
      (r) => r.id === id,
    )!;
  /** Tab until the waiting row named `name` is the selected one, and it is drawn so. */
  const selectWaiting = async (name: string) => {
    const selectedName = () => h.hub.state.rows.get(h.hub.state.selectedId ?? "")?.name;
    // Tab until it is selected, one Tab taken at a time: the terminal hands keys to the hub a moment
    // later, and the row may reach the hub's list a moment after the daemon's.
    let tabbedAt = 0;
    await waitFor(`${name} selected by Tab`, async () => {
      if (selectedName() === name) return true;
      if (Date.now() - tabbedAt > 300) {
        tabbedAt = Date.now();
        h.terminal.type(TAB);
      }
      return undefined;
    });
    assert.equal(selectedName(), name);
    await h.waitForScreen(`${name} selected`, (s) => new RegExp(`› \\? ${name} `).test(s));
  };
  const dispatch = async (profile: string, task: string) =>
    (await h.raw.request("dispatch", { profile, task, cwd: folder })).result.id as string;

  test("Claude Code at 80×24: idle it is done; its dialog's choices show when selected; the details list them; 3 is No", async () => {
    const id = await dispatch("claude", "TASK say hello");
    const idle = await h.waitForScreen(
      "claude done",
      (s) => /✓ claude +done +ANSWER: say hello/.test(s),
      START_MS,
    );
    assert.doesNotMatch(idle.split("\n")[0]!, /waiting/, "an idle session is not counted as waiting");
    await h.raw.request("reply", { id, text: "RUN echo hi > no.txt" });
    await h.waitForScreen("claude asks", (s) => /\? claude +waiting/.test(s), START_MS);
    await selectWaiting("claude");
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
      (s) => /✓ claude +done +refused: Bash\(echo hi > no\.txt\)/.test(s),
      START_MS,
    );
    assert.doesNotMatch(refused.split("\n")[0]!, /waiting/);
    assert.equal(existsSync(join(folder, "no.txt")), false, '"No" ran the command');
  });

  test("Codex at 120×35: its approval's command and choices show when selected; 1 runs it", async () => {
    h.terminal.resize(120, 35);
    const id = await dispatch("codex", "TASK say hello");
    await h.waitForScreen("codex done", (s) => /✓ codex +done +ANSWER: say hello/.test(s), START_MS);
    await h.raw.request("reply", { id, text: "RUN echo hi > yes.txt" });
    await h.waitForScreen("codex asks", (s) => /\? codex +waiting/.test(s), START_MS);
    await selectWaiting("codex");
    const asking = await h.waitForScreen(
      "its choices",
      (s) => /\b1 Yes, proceed\b/.test(s) && /\b3 No, and tell Codex/.test(s),
    );
    assert.match(asking, /\$ echo hi > yes\.txt/);
    h.terminal.type("1");
    await waitFor("yes.txt", async () => existsSync(join(folder, "yes.txt")) || undefined, START_MS);
    assert.equal(existsSync(join(folder, "no.txt")), false);
  });

  test("a warren player at 80×24 and 120×35: its choices show numbered when selected, and the digit drawn is the move it takes", async () => {
    const id = await dispatch(
      "warren-play",
      `${warren.url} engineer-1 --scenario bridge_repair --seed 3 --deadline 900`,
    );
    for (const [columns, lines] of [
      [80, 24],
      [120, 35],
    ] as const) {
      h.terminal.resize(columns, lines);
      const asked = await waitFor(
        "the player's question",
        async () => {
          const r = await row(id);
          return r?.waitingFor === "question" ? r : undefined;
        },
        START_MS,
      );
      const choices = asked.choices as string[];
      const move = choices.find((c) => /^(take toolbox-1|move_to \S+)$/.test(c))!;
      const n = choices.indexOf(move) + 1;
      assert.ok(n >= 1 && n <= 9, `a move among the keyed choices: ${choices.join(" | ")}`);
      await selectWaiting("warren-play");
      await h.waitForScreen(`choice ${n} drawn at ${columns}×${lines}`, (s) => s.includes(`${n} ${move}`));
      h.terminal.type(String(n));
      await waitFor(
        `${move} taken`,
        async () => ((await row(id)).question as string | null)?.includes(`Last: ${move} →`) || undefined,
        START_MS,
      );
    }
  });
});
