// `roost attach` in a real terminal (tmux): what the attached screen itself says, not only the title.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  CLI,
  type RawConnection,
  startTestDaemon,
  TEST_PROFILES,
  type TestDaemon,
} from "./helpers/daemon.js";
import { dispatchTerminal, rowWhen, TERMINAL_PROFILES } from "./helpers/terminal.js";
import { hasTmux, paneReader, tmuxServer } from "./helpers/tmux.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const skip = hasTmux() ? false : "tmux is not installed: these runs need a real terminal from it";

describe("roost attach says on the screen how to leave, and why a protocol agent's is blank", {
  skip,
}, () => {
  const tmux = tmuxServer("roost-attach-test");
  let daemon: TestDaemon;
  let conn: RawConnection;

  before(async () => {
    daemon = await startTestDaemon({
      config: { agentProfiles: { proceed: TERMINAL_PROFILES.proceed, mute: TEST_PROFILES.mute } },
    });
    conn = await daemon.connect();
  });
  after(async () => {
    await tmux("kill-server").catch(() => {});
    conn?.close();
    await daemon?.stop();
  });

  /** `roost attach ID` in a tmux window of its own, 100x30. */
  async function attachIn(window: string, id: string) {
    const command = `ROOST_HOME='${daemon.home}' '${process.execPath}' '${CLI}' attach ${id}; echo "attach exited $?"; sleep 600`;
    await tmux("new-session", "-d", "-s", window, "-x", "100", "-y", "30", "-c", PACKAGE, command);
    return paneReader(tmux, window);
  }

  test("a terminal agent: its screen, with Ctrl-] detaches drawn on it; Ctrl-] leaves", async () => {
    const { id } = await dispatchTerminal(daemon, conn, "proceed");
    await rowWhen(conn, id, (r) => r.state === "blocked");
    const pane = await attachIn("term", id);
    const shown = await pane.waitForPane("the job's screen", (s) => s.includes("Proceed? [y/N]"));
    const top = shown.split("\n")[0]!;
    assert.match(
      top,
      /\[roost\] proceed \([0-9a-f]+\) · Ctrl-\] detaches ?$/,
      "at the top right of the screen",
    );
    assert.match(shown, /about to deploy v2/, "the job's own screen under it");
    await tmux("send-keys", "-t", "term", "C-]");
    await pane.waitForPane("back in the shell", (s) => s.includes("attach exited 0"));
  });

  test("a protocol agent that printed nothing: the screen says why it is blank and how to leave", async () => {
    const id = (await conn.request("dispatch", { profile: "mute", name: "quiet", cwd: daemon.home })).result
      .id as string;
    await rowWhen(conn, id, (r) => r.lifecycle === "running");
    const pane = await attachIn("proto", id);
    const shown = await pane.waitForPane("the note", (s) => s.includes("is a protocol agent"));
    const text = shown.replace(/\n/g, "");
    assert.match(
      text,
      /\[roost\] quiet \([0-9a-f]+\) is a protocol agent: it speaks to roost, not to this terminal/,
    );
    assert.match(text, /nothing to show/);
    assert.match(shown.split("\n")[0]!, /Ctrl-\] detaches ?$/);
    await tmux("send-keys", "-t", "proto", "C-]");
    await pane.waitForPane("back in the shell", (s) => s.includes("attach exited 0"));
  });
});
