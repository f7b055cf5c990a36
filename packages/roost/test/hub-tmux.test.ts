import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CLI, type RawConnection, startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG } from "./helpers/hub-harness.js";
import { hasTmux, paneReader } from "./helpers/tmux.js";

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

const skip = hasTmux() ? false : "tmux is not installed: the end-to-end run needs a real terminal from it";

describe("roost hub in a real terminal under tmux", { skip }, () => {
  // A tmux server of the test's own, so that nobody's sessions are touched.
  const server = `roost-hub-test-${process.pid}`;
  const tmux = (...args: string[]) => run("tmux", ["-L", server, ...args]);
  const { waitForPane } = paneReader(tmux, "hub");
  const flag = async (name: string) =>
    (await tmux("display-message", "-p", "-t", "hub", `#{${name}}`)).stdout.trim();
  let daemon: TestDaemon;
  let raw: RawConnection;
  let id: string;

  before(async () => {
    daemon = await startTestDaemon({ config: HUB_TEST_CONFIG });
    raw = await daemon.connect();
    id = (await raw.request("dispatch", { profile: "agent", name: "tmux-agent" })).result.id;
    const command = `ROOST_HOME='${daemon.home}' '${process.execPath}' '${CLI}' hub; echo "hub exited $?"; sleep 600`;
    await tmux("new-session", "-d", "-s", "hub", "-x", "90", "-y", "26", "-c", PACKAGE, command);
  });

  after(async () => {
    await tmux("kill-server").catch(() => {});
    raw?.close();
    await daemon?.stop();
  });

  test("shows the fleet, takes a reply, and leaves the terminal as it was", async () => {
    await waitForPane("the agent's row", (s) => /tmux-agent +working +ready/.test(s));
    assert.equal(await flag("alternate_on"), "1", "the hub draws on the alternate screen");
    await tmux("send-keys", "-t", "hub", "Enter");
    await tmux("send-keys", "-t", "hub", "-l", "typed in tmux");
    await waitForPane("the editor line", (s) => s.includes("⤷ reply › typed in tmux"));
    await tmux("send-keys", "-t", "hub", "Enter");
    await waitForPane("the agent's report of it", (s) => s.includes("got: typed in tmux"));
    // The agent reports it, then acks it: the ack may come after the report shows.
    await waitFor("the agent to ack it", async () => {
      const rows = (await raw.request("list")).result.rows as { id: string; pending: number }[];
      return rows.find((r) => r.id === id)?.pending === 0 ? true : undefined;
    });
    const received = readFileSync(join(daemon.stateDir, "jobs", id, "received.jsonl"), "utf8");
    assert.equal(received.split("typed in tmux").length - 1, 1, "the reply reached the agent once");

    // Attach: the session's terminal takes the screen; Ctrl-] comes back to the hub.
    await tmux("send-keys", "-t", "hub", "a");
    await waitForPane(
      "the attached terminal",
      (s) => !s.includes("roost hub ·") && !s.includes("Enter reply"),
    );
    // The session's screen is on the alternate screen, as tmux does it; the title says how to leave.
    await waitFor("the attached title", async () =>
      /roost: tmux-agent .*Ctrl-\] detaches/.test(await flag("pane_title")) ? true : undefined,
    );
    assert.equal(await flag("alternate_on"), "1", "the session has a screen of its own");
    await tmux("send-keys", "-t", "hub", "C-]");
    await waitForPane(
      "the hub again",
      (s) => s.includes("Back from tmux-agent.") && /tmux-agent +working/.test(s),
    );
    assert.equal(await flag("alternate_on"), "1");

    // A resize of the real terminal redraws at the new size: the key hints on the last row.
    await tmux("resize-window", "-t", "hub", "-x", "80", "-y", "24");
    const resized = await waitForPane("the hub at 80x24", (s) => {
      const lines = s.replace(/\n$/, "").split("\n");
      return lines.length === 24 && lines[23]!.includes("Enter reply") && lines[0]!.includes("roost hub");
    });
    assert.equal(resized.split("\n").filter((l) => /tmux-agent +working/.test(l)).length, 1, "no leftovers");

    await tmux("send-keys", "-t", "hub", "q");
    const after = await waitForPane("the hub's exit", (s) => s.includes("hub exited 0"));
    assert.doesNotMatch(
      after,
      /roost hub ·|tmux-agent +working|Enter reply/,
      "the shell's screen is back, with nothing of the hub on it",
    );
    assert.equal(await flag("alternate_on"), "0", "off the alternate screen");
    assert.equal(await flag("cursor_flag"), "1", "the cursor shows again");
    const listed = (await raw.request("list")).result.rows as { id: string; lifecycle: string }[];
    assert.equal(listed.find((r) => r.id === id)?.lifecycle, "running", "the session keeps running");
  });
});
