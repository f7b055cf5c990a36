// The hub over a `warren play` row at 80×24 and 120×35: the player's choices are numbered on the
// screen when selected, and the digit drawn is the move it takes.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { waitFor } from "./helpers/daemon.js";
import { type ChoicesHub, START_MS, startChoicesHub } from "./helpers/real-choices.js";

/** warren's command, named by its path as the demo does (roost itself knows nothing of warren). */
const WARREN = fileURLToPath(new URL("../../warren/bin/warren.js", import.meta.url));
const skip = existsSync(WARREN) ? false : "warren is not built (npm run build at the root builds it)";

/** `warren serve --port 0`, and its URL once it listens. */
async function warrenServe(): Promise<{ url: string; child: ChildProcess }> {
  // Its stderr is read, never inherited: a server left behind would hold the runner's output open.
  const child = spawn(process.execPath, [WARREN, "serve", "--port", "0", "--no-persist"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  process.once("exit", () => child.kill("SIGKILL"));
  let text = "";
  child.stderr!.on("data", (d) => (text += String(d)));
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { url, child };
  }
  throw new Error(`warren serve did not start: ${text}`);
}

describe("the hub's one-key picks over a warren player", { skip }, () => {
  let warren: { url: string; child: ChildProcess };
  let c: ChoicesHub;

  before(async () => {
    warren = await warrenServe();
    c = await startChoicesHub(() => ({
      "warren-play": {
        command: ["/bin/sh", "-c", 'exec "$0" "$1" play $2', process.execPath, WARREN],
        task: "argv",
        protocol: true,
      },
    }));
  });

  after(async () => {
    await c?.close();
    warren?.child.kill("SIGKILL");
  });

  test("a warren player at 80×24 and 120×35: its choices show numbered when selected, and the digit drawn is the move it takes", async () => {
    const { h } = c;
    const id = await c.dispatch(
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
          const r = await c.row(id);
          return r?.waitingFor === "question" ? r : undefined;
        },
        START_MS,
      );
      const choices = asked.choices as string[];
      const move = choices.find((choice) => /^(take toolbox-1|move_to \S+)$/.test(choice))!;
      const n = choices.indexOf(move) + 1;
      assert.ok(n >= 1 && n <= 9, `a move among the keyed choices: ${choices.join(" | ")}`);
      await c.selectWaiting("warren-play");
      await h.waitForScreen(`choice ${n} drawn at ${columns}×${lines}`, (s) => s.includes(`${n} ${move}`));
      h.terminal.type(String(n));
      await waitFor(
        `${move} taken`,
        async () => ((await c.row(id)).question as string | null)?.includes(`Last: ${move} →`) || undefined,
        START_MS,
      );
    }
  });
});
