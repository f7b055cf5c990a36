/**
 * The hub's bell and window title over a real daemon and agent: a session that starts waiting rings
 * once and the title counts it; `"hub": {"bell": false}` keeps the bell quiet, not the title.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { waitFor } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG, startHubHarness } from "./helpers/hub-harness.js";

test("a session that starts waiting rings the bell once and the title counts the waiting; the setting turns the bell off", async () => {
  const h = await startHubHarness();
  let bells = 0;
  const titles: string[] = [];
  h.terminal.xterm.onBell(() => bells++);
  h.terminal.xterm.onTitleChange((title) => titles.push(title));
  try {
    const id = (await h.raw.request("dispatch", { profile: "agent", name: "asker" })).result.id as string;
    await h.waitForScreen("the agent's row", (text) => text.includes("asker"));
    await h.raw.request("reply", { id, text: "ask" });
    await h.waitForScreen("its question", (text) => text.includes("Proceed with the plan?"));
    await waitFor("the bell and the title", async () => {
      await h.terminal.screen();
      return bells === 1 && titles.at(-1) === "(1) roost";
    });
    // Still waiting while what it says changes: no second ring.
    await h.raw.request("reply", { id, text: "ask" });
    await waitFor("the second reply taken", () => h.received(id).length === 2);
    await h.raw.request("reply", { id, text: "say:working now" });
    await h.waitForScreen("it works again", (text) => text.includes("working now"));
    await waitFor("the title without it", async () => {
      await h.terminal.screen();
      return titles.at(-1) === "roost";
    });
    assert.equal(bells, 1);

    writeFileSync(
      join(h.daemon.home, "roost.json"),
      JSON.stringify({ ...HUB_TEST_CONFIG, hub: { bell: false } }),
    );
    await h.raw.request("reply", { id, text: "ask" });
    await waitFor("the title counting it again", async () => {
      await h.terminal.screen();
      return titles.at(-1) === "(1) roost";
    });
    assert.equal(bells, 1, "no bell with hub.bell false");
  } finally {
    await h.close();
  }
});
