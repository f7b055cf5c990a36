/**
 * The page's board, events feed and concierge's line, in Debian's chromium against a real daemon and
 * the built `roost web`: a task a client adds shows on the board and one added on the page reaches
 * the daemon; an event shows in the feed as it happens, newest first; what the concierge (played by
 * the test's own connection) says shows on its line, and an ask from the page reaches it. Markup in
 * any of them is shown as text. Screenshots are kept under the temp folder.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { browserForSuite, browserMissing } from "../../warren/test/helpers/browser.js";
import { speakFor } from "./helpers/a2a.js";
import { openFleet } from "./helpers/web-pages.js";
import { startWebFleet } from "./helpers/web-suite.js";

const suite = browserForSuite();
let fleet: Awaited<ReturnType<typeof startWebFleet>>;
const shots = mkdtempSync(join(tmpdir(), "roost-web-feeds-shots-"));
const skip = browserMissing || undefined;

before(async () => {
  if (browserMissing) return;
  fleet = await startWebFleet();
});
after(async () => {
  await fleet?.stop();
  process.stderr.write(`roost web feeds screenshots: ${shots}\n`);
});

const MARKUP = '<img src=x onerror="window.pwned=1"><b>bold</b>';
/** Elements an agent's markup would have made, and whether any of its script ran. */
const made = `({ elements: document.querySelectorAll("main img, main b, .concierge img, .concierge b").length, pwned: window.pwned ?? null })`;

test("the board shows a client's task as text, and a task added on the page reaches the daemon", {
  skip,
}, async () => {
  const { page, context, errors } = await openFleet(suite.browser, fleet.web.url);
  // The concierge is off: its line says so, and offers no ask.
  await page.locator(".concierge-line", { hasText: "concierge off" }).waitFor();
  assert.equal(await page.locator(".concierge-form").isVisible(), false);
  await page.click(".view-board");
  await page.locator(".board-summary", { hasText: "The board is empty" }).waitFor();
  const added = await fleet.daemon.cli(["tasks", "add", `ship ${MARKUP}`, "--detail", "with <i>care</i>"]);
  assert.equal(added.code, 0, added.stderr);
  const task = page.locator(".task", { hasText: `ship ${MARKUP}` });
  await task.waitFor();
  assert.equal(await task.locator(".task-state").textContent(), "open");
  assert.equal(await task.locator(".task-detail").textContent(), "with <i>care</i>");
  await page.locator(".board-summary", { hasText: "1 open · 0 claimed · 0 done" }).waitFor();
  assert.equal(await page.locator(".rows").isVisible(), false, "the board in the rows' place");

  await page.fill(".task-title", "from the page");
  await page.click(".task-add-button");
  await page.locator(".notice", { hasText: /Added task #2/ }).waitFor();
  await page.locator(".task", { hasText: "from the page" }).waitFor();
  const board = JSON.parse((await fleet.daemon.cli(["tasks", "--json"])).stdout) as {
    tasks: { title: string; by: { who: string } }[];
  };
  assert.deepEqual(
    board.tasks.map((t) => [t.title, t.by.who]),
    [
      [`ship ${MARKUP}`, "user"],
      ["from the page", "user"],
    ],
  );
  assert.deepEqual(await page.evaluate(made), { elements: 0, pwned: null });
  await page.screenshot({ path: join(shots, "board.png") });
  await page.click(".view-sessions");
  await page.locator(".rows").waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("the events view shows an event as it happens, newest first", { skip }, async () => {
  const { page, context, errors } = await openFleet(suite.browser, fleet.web.url);
  await page.click(".view-events");
  await page.locator(".feed-item").first().waitFor();
  await fleet.daemon.cli(["tasks", "add", `feed ${MARKUP}`]);
  const first = page.locator(".feed-item").first();
  await first.locator(".feed-text", { hasText: `feed ${MARKUP}` }).waitFor();
  assert.equal(await first.locator(".feed-kind").textContent(), "task add");
  assert.equal(await first.locator(".feed-who").textContent(), "user");
  await fleet.daemon.cli(["tasks", "drop", "3"]);
  await first.locator(".feed-kind", { hasText: "task drop" }).waitFor();
  assert.deepEqual(await page.evaluate(made), { elements: 0, pwned: null });
  await page.screenshot({ path: join(shots, "events.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the concierge's line shows what it says, and an ask from the page reaches it; at phone size too", {
  skip,
}, async () => {
  const raw = await fleet.daemon.connect();
  const on = await raw.request("concierge", { action: "on", launch: { profile: "mute" } });
  assert.equal(on.ok, true, JSON.stringify(on));
  const concierge = await speakFor(fleet.daemon, on.result.job.id, {
    state: "working",
    status: "idle",
    agentItems: true,
  });
  try {
    const { page, context, errors } = await openFleet(suite.browser, fleet.web.url, {
      width: 390,
      height: 844,
    });
    const line = page.locator(".concierge-line");
    await line.locator(".concierge-head", { hasText: "◆ concierge" }).waitFor();
    const said = await concierge.request("concierge-say", { kind: "need", text: `deploy ${MARKUP} waits` });
    assert.equal(said.ok, true, JSON.stringify(said));
    await line.locator(".concierge-said", { hasText: `needs you: deploy ${MARKUP} waits` }).waitFor();
    assert.match((await page.locator(".concierge").getAttribute("class")) ?? "", /needs/);

    await page.fill(".concierge-question", "what needs me?");
    await page.click(".concierge-ask");
    const delivered = await concierge.nextEvent((e) => e.event === "deliver" && e.text === "what needs me?");
    assert.equal(delivered.kind, undefined, "the person's own reply");
    await page.locator(".notice", { hasText: "Asked the concierge" }).waitFor();
    await concierge.request("concierge-say", { kind: "answer", text: "nothing, all is well" });
    await line.locator(".concierge-said", { hasText: "answer: nothing, all is well" }).waitFor();

    // A phone: every view fits the width, the buttons are thumb-sized.
    for (const view of ["sessions", "board", "events"]) {
      await page.click(`.view-${view}`);
      const width = (await page.evaluate("document.documentElement.scrollWidth")) as number;
      assert.ok(width <= 390, `no sideways scrolling at 390 px in ${view} (${width})`);
    }
    const ask = await page.locator(".concierge-ask").boundingBox();
    assert.ok(ask && ask.height >= 44, "a thumb-sized Ask");
    await page.screenshot({ path: join(shots, "phone-events.png") });
    assert.deepEqual(await page.evaluate(made), { elements: 0, pwned: null });
    assert.deepEqual(errors, []);
    await context.close();
    // A page opened later is sent its last word too.
    const later = await openFleet(suite.browser, fleet.web.url);
    await later.page.locator(".concierge-said", { hasText: "nothing, all is well" }).waitFor();
    await later.context.close();
  } finally {
    concierge.close();
    raw.close();
  }
});
