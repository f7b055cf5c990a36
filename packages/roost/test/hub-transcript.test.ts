// `t` in the real hub, in a real terminal under tmux at 80×24, on a real pi job: its transcript
// full screen at its end, following live; scrolled up it stays put while entries come; End follows
// again; Esc goes back. The agent's escape sequences neither set the title nor clear the screen.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FakeRequest } from "./fixtures/fake-openai.js";
import { CLI } from "./helpers/daemon.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";
import { hasTmux, paneReader, tmuxServer } from "./helpers/tmux.js";

/** The box's bottom border says whether it follows. */
const FOLLOWING = "· following · Esc closes";
const SCROLLED = "· End follows · Esc closes";

const skip = hasTmux() ? false : "tmux is not installed: the view is read from a real terminal";

/** The long answer: a hostile first line (a title, a cleared screen), then 40 numbered lines. */
const LONG = [
  "\x1b]0;pwned\x07look\x1b[2J here",
  ...Array.from({ length: 40 }, (_, i) => `line ${i + 1}`),
].join("\n");

function script(request: FakeRequest) {
  if (request.last === "write a long answer") return { text: LONG };
  if (request.last === "one more") return { text: "the last word" };
  return { text: `answer to: ${request.last}` };
}

describe("the hub's transcript view", { skip }, () => {
  const tmux = tmuxServer("roost-hub-transcript");
  const { capture, waitForPane } = paneReader(tmux, "hub");
  const title = async () => (await tmux("display-message", "-p", "-t", "hub", "#{pane_title}")).stdout.trim();
  const keys = (...names: string[]) => tmux("send-keys", "-t", "hub", ...names);
  let suite: PiSuite;

  before(async () => {
    suite = await startPiSuite(script);
    const command = `ROOST_HOME='${suite.daemon.home}' '${process.execPath}' '${CLI}' hub; sleep 600`;
    await tmux("new-session", "-d", "-s", "hub", "-x", "80", "-y", "24", command);
  });

  after(async () => {
    await tmux("kill-server").catch(() => {});
    await suite?.close();
  });

  test("t opens it at its end, following; scrolled up it stays while entries come; End follows; Esc goes back", {
    timeout: PI_WAIT_MS * 3,
  }, async () => {
    const { id } = await suite.dispatch("write a long answer", { name: "talker" });
    await suite.row(id, (r) => r.state === "done", "the long answer");
    await waitForPane("the row", (s) => /talker +done/.test(s));
    const before = await title();
    await keys("t");
    const opened = await waitForPane(
      "the transcript at its end",
      (s) => s.includes("line 40") && s.includes(FOLLOWING),
    );
    const lines = opened.replace(/\n$/, "").split("\n");
    assert.equal(lines.length, 24);
    assert.match(lines[0]!, /^┌ talker · transcript \(pi\) ─+┐$/);
    assert.match(lines[21]!, /^└ lines \d+-\d+ of \d+ · ↑↓ PgUp PgDn · following · Esc closes ─*┘$/);
    assert.match(
      lines[23]!,
      /^ ↑↓ PgUp PgDn · End follows · Esc back · a key of the list acts on this row *$/,
    );
    assert.ok(!opened.includes("write a long answer"), "at its end, the task is above the screen");

    await keys("Home");
    const top = await waitForPane("its start", (s) => s.includes(SCROLLED));
    assert.match(
      top,
      /│ \d\d:\d\d:\d\d you +│\n│ {3}write a long answer +│\n│ \d\d:\d\d:\d\d pi +│\n│ {3}look here +│/,
    );
    // The agent's sequences did nothing: the title is the hub's, the screen was not cleared.
    assert.equal(await title(), before);
    assert.ok(!top.includes("pwned"));
    const total = Number(/of (\d+)/.exec(top)![1]);

    // Scrolled up, it stays where it is as the conversation goes on.
    await suite.hub.request("reply", { id, text: "one more" });
    const grown = await waitForPane("more lines below", (s) => Number(/of (\d+)/.exec(s)?.[1]) >= total + 4);
    assert.match(grown, /lines 1-20 of/);
    assert.ok(!grown.includes("the last word"));

    await keys("End");
    await waitForPane(
      "the new answer, following",
      (s) => s.includes("the last word") && s.includes(FOLLOWING),
    );
    // Following, what comes shows by itself.
    await suite.hub.request("reply", { id, text: "and again" });
    await waitForPane("the next answer", (s) => s.includes("answer to: and again"));
    await keys("PPage");
    const paged = await waitForPane("a page up", (s) => s.includes(SCROLLED));
    const [, from, to, of] = /lines (\d+)-(\d+) of (\d+)/.exec(paged)!.map(Number);
    assert.deepEqual([to! - from!, of! - to!], [19, 19], paged);
    await keys("NPage");
    await waitForPane(
      "at the end, following again",
      (s) => s.includes(FOLLOWING) && s.includes("answer to: and again"),
    );
    await keys("Up");
    await waitForPane("a line up: no longer following", (s) => s.includes(SCROLLED));

    await keys("Escape");
    const list = await waitForPane(
      "the list",
      (s) => /roost hub · 1 session/.test(s) && /talker +done/.test(s),
    );
    assert.ok(!list.includes("transcript"));
    await keys("?");
    await waitForPane("t in the help", (s) => /t +its conversation: messages, answers, tool calls/.test(s));
    await keys("Escape");
    assert.ok((await capture()).length > 0);
  });
});
