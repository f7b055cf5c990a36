import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { WarrenClient } from "../src/client/index.js";
import { isObservation, piAgentDir, piEngineerAnswer, startPiModel } from "./helpers/engineer-models.js";
import { engineerStart } from "./helpers/play-table.js";
import { serverForSuite } from "./helpers/server.js";
import { warrenBin } from "./helpers/warren-process.js";

type Tmux = (...args: string[]) => Promise<{ stdout: string }>;
// roost's own helpers for tests under tmux, loaded by their path: they are outside this package.
const { hasTmux, tmuxServer, paneReader } = (await import(
  new URL("../../roost/test/helpers/tmux.ts", import.meta.url).href
)) as {
  hasTmux(): boolean;
  tmuxServer(name: string): Tmux;
  paneReader(
    tmux: Tmux,
    target: string,
  ): {
    capture(): Promise<string>;
    waitForPane(what: string, ok: (text: string) => boolean): Promise<string>;
  };
};

const TOKEN = "warren-pi-play-token";
const live = serverForSuite({ token: TOKEN });

/** A word for the pane's shell, quoted whole. */
const word = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

describe("warren play --agent pi: pi's own window plays the run", {
  skip: hasTmux() ? false : "tmux is not installed",
}, () => {
  const tmux = tmuxServer("warren-play-pi");
  const folders: string[] = [];
  after(async () => {
    await tmux("kill-server").catch(() => undefined);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it("pi, started by warren play with warren's extension, plays bridge_repair's engineer to completed; quitting pi ends play with 0", async () => {
    const catalog = (await engineerStart()).briefing.tool_catalog;
    const model = await startPiModel(async (request) =>
      isObservation(request)
        ? piEngineerAnswer(request, catalog)
        : { text: "waiting for the next observation" },
    );
    try {
      const piDir = piAgentDir(model.baseUrl);
      const work = mkdtempSync(join(tmpdir(), "warren-play-pi-"));
      folders.push(piDir, work);
      const exitFile = join(work, "exit");
      const play = [
        process.execPath,
        warrenBin,
        "play",
        live.url,
        "engineer-1",
        "--scenario",
        "bridge_repair",
      ]
        .concat(["--seed", "3", "--agent", "pi"])
        .map(word)
        .join(" ");
      const shell = `cd ${word(work)} && PI_CODING_AGENT_DIR=${word(piDir)} PI_OFFLINE=1 WARREN_TOKEN=${TOKEN} ${play} 2>${word(join(work, "stderr"))}; echo $? > ${word(exitFile)}; sleep 600`;
      await tmux("new-session", "-d", "-s", "play", "-x", "120", "-y", "35", shell);
      const client = new WarrenClient(live.url, { token: TOKEN });
      const pane = paneReader(tmux, "play");
      let runId = "";
      for (const deadline = Date.now() + 90_000; ; ) {
        const runs = await client.runs();
        runId = runs[0]?.run_id ?? "";
        if (runs[0] && runs[0].status !== "running" && runs[0].status !== "created") break;
        assert.ok(Date.now() < deadline, `the run ends; the pane:\n${await pane.capture()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const view = await client.run(runId);
      assert.equal(view.status, "completed", `${view.status_reason}\n${await pane.capture()}`);
      // pi stays open for the person, who quits it: then warren play says how the run stands.
      await pane.waitForPane("pi told the run is over", (text) => /run is over/i.test(text));
      await tmux("send-keys", "-t", "play", "C-c");
      await tmux("send-keys", "-t", "play", "C-c");
      await pane.waitForPane("warren play ended", () => existsSync(exitFile));
      assert.equal(readFileSync(exitFile, "utf8").trim(), "0", readFileSync(join(work, "stderr"), "utf8"));
      assert.match(readFileSync(join(work, "stderr"), "utf8"), new RegExp(`${runId} is completed`));
      const engineerCalls = model.requests.filter((r) => r.role === "tool").length;
      assert.ok(engineerCalls >= 5, `each move was a tool call (${engineerCalls})`);
    } finally {
      await model.close();
    }
  });
});
