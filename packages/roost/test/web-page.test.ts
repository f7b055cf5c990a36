/**
 * The fleet in a browser: Debian's chromium through playwright-core, against a real daemon with real
 * agents (the protocol test agent, a terminal agent that asks `[y/N]`, a screen with markup on it)
 * and the built `roost web`. Screenshots at desktop and phone sizes are kept under the temp folder.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { browserForSuite, browserMissing } from "../../warren/test/helpers/browser.js";
import { waitFor } from "./helpers/daemon.js";
import { receivedLines } from "./helpers/terminal.js";
import { dispatchNamed, openFleet, rowOf } from "./helpers/web-pages.js";
import { startWebFleet } from "./helpers/web-suite.js";

const suite = browserForSuite();
let fleet: Awaited<ReturnType<typeof startWebFleet>>;
const shots = mkdtempSync(join(tmpdir(), "roost-web-shots-"));

before(async () => {
  if (browserMissing) return;
  fleet = await startWebFleet();
});
after(async () => {
  await fleet?.stop();
  process.stderr.write(`roost web screenshots: ${shots}\n`);
});

const openPage = (size?: { width: number; height: number }) => openFleet(suite.browser, fleet.web.url, size);
const dispatch = (profile: string, name: string, task?: string) =>
  dispatchNamed(fleet.daemon, profile, name, task);

/** What the test agent handled, as its log says. */
const handled = (id: string) =>
  readFileSync(join(fleet.logDir, `${id}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; text?: string })
    .filter((entry) => entry.event === "handled")
    .map((entry) => entry.text);

const skip = browserMissing || undefined;

/** What the page showed as notifications, as recorded in it. */
const shown = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { shown: { title: string; body: string }[] }).shown);

test("the page lists the rows live, waiting ones first with the hub's marks and words; filter and search", {
  skip,
}, async () => {
  // No session yet: the list says where the page starts one.
  const empty = await openPage();
  await empty.page
    .locator(".empty", { hasText: "No sessions yet: New… starts one from a profile." })
    .waitFor();
  assert.equal(await empty.page.locator(".new").textContent(), "New…");
  await empty.context.close();
  const quiet = await dispatch("asker", "quiet");
  const asking = await dispatch("asker", "asking");
  await waitFor("the agents to connect", async () => {
    const rows = JSON.parse((await fleet.daemon.cli(["ls", "--json"])).stdout) as {
      id: string;
      connected: boolean;
    }[];
    return [quiet, asking].every((id) => rows.find((r) => r.id === id)?.connected);
  });
  await fleet.daemon.cli(["reply", asking, "plan"]);
  const { page, context, errors } = await openPage();
  const first = page.locator(".row").first();
  await first.locator(".name", { hasText: "asking" }).waitFor();
  assert.equal(await first.locator(".glyph").textContent(), "?");
  assert.equal(await first.locator(".label").textContent(), "waiting");
  assert.equal(await first.locator(".question").textContent(), "? what after plan?");
  await rowOf(page, "quiet").locator(".label", { hasText: "idle" }).waitFor();
  // Polled from here: the page's Content-Security-Policy refuses the eval a string predicate needs.
  const titled = (count: number) =>
    waitFor(
      `the title counting ${count}`,
      async () => (await page.title()).startsWith(`(${count}) roost`) || undefined,
    );
  await titled(1);

  // Live: a change the daemon makes shows without a reload.
  await fleet.daemon.cli(["reply", quiet, "more"]);
  await rowOf(page, "quiet").locator(".question", { hasText: "what after more?" }).waitFor();
  await titled(2);

  await page.fill(".search", "asking");
  await waitFor("one row matching", async () => (await page.locator(".row").count()) === 1 || undefined);
  await page.fill(".search", "");
  await page.selectOption(".state-filter", "idle");
  await page.locator(".empty", { hasText: "No session matches" }).waitFor();
  await page.selectOption(".state-filter", "all");
  await rowOf(page, "quiet").waitFor();
  await page.screenshot({ path: join(shots, "desktop.png") });
  assert.deepEqual(errors, []);
  await context.close();

  const phone = await openPage({ width: 390, height: 844 });
  await rowOf(phone.page, "asking").waitFor();
  await phone.page.screenshot({ path: join(shots, "phone-list.png") });
  await rowOf(phone.page, "asking").locator(".name").click();
  await phone.page.locator(".session h2", { hasText: "asking" }).waitFor();
  assert.equal(
    await phone.page.locator(".rows").isVisible(),
    false,
    "on a phone the session covers the list",
  );
  const choiceBox = await phone.page.locator(".session .send").boundingBox();
  assert.ok(choiceBox && choiceBox.height >= 44, "a thumb-sized button");
  const width = (await phone.page.evaluate("document.documentElement.scrollWidth")) as number;
  assert.ok(width <= 390, `no sideways scrolling at 390 px (${width})`);
  await phone.page.screenshot({ path: join(shots, "phone-session.png") });
  await phone.context.close();
});

test("a terminal agent's [y/N] is answered No by its button, and the command does not run", {
  skip,
}, async () => {
  const id = await dispatch("proceed", "deploy", "v2");
  const { page, context, errors } = await openPage();
  const row = rowOf(page, "deploy");
  await row.locator(".question", { hasText: "Proceed? [y/N]" }).waitFor();
  const buttons = await row.locator(".choice").allTextContents();
  assert.deepEqual(buttons, ["1 y", "2 n"]);
  await row.locator(".choice", { hasText: "n" }).click();
  await page.locator(".notice", { hasText: /saved for deploy/ }).waitFor();
  const dir = join(fleet.daemon.stateDir, "jobs", id);
  await waitFor("the answer to be read", () => receivedLines(dir).length > 0 && receivedLines(dir));
  assert.deepEqual(receivedLines(dir), ["got [n]"]);
  await row.locator(".name").click();
  await page.locator(".last-lines", { hasText: "cancelled" }).waitFor();
  assert.doesNotMatch((await page.locator(".last-lines").textContent()) ?? "", /deployed v2/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a reply sent twice over a dropped connection is taken once", { skip }, async () => {
  const id = await dispatch("asker", "twice");
  await waitFor("the agent to connect", () => handled(id) && true);
  await fleet.daemon.cli(["reply", id, "go"]);
  const browser: Browser = suite.browser;
  const context = await browser.newContext();
  const page = await context.newPage();
  let sockets = 0;
  let dropped = false;
  // Between the page and roost web: the first reply goes through, and the connection breaks before its answer comes back.
  await page.routeWebSocket(/\/live$/, (ws) => {
    sockets++;
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      server.send(message);
      if (!dropped && String(message).includes('"op":"reply"')) {
        dropped = true;
        ws.close();
      }
    });
    server.onMessage((message) => ws.send(message));
  });
  await page.goto(fleet.web.url);
  await rowOf(page, "twice").locator(".name").click();
  await page.locator(".answering", { hasText: "what after go?" }).waitFor();
  await page.fill(".reply-text", "once only");
  await page.click(".send");
  await page.locator(".notice", { hasText: "Reply to twice was saved already (duplicate)" }).waitFor();
  assert.equal(dropped, true);
  assert.ok(sockets >= 2, `the page reconnected (${sockets} sockets)`);
  await rowOf(page, "twice").locator(".question", { hasText: "what after once only?" }).waitFor();
  assert.deepEqual(handled(id), ["go", "once only"]);
  await context.close();
});

test("a reply to a question that changed meanwhile is held, not given as the other's answer", {
  skip,
}, async () => {
  const id = await dispatch("asker", "changing");
  await waitFor("the agent to connect", () => handled(id) && true);
  await fleet.daemon.cli(["reply", id, "first"]);
  const { page, context } = await openPage();
  await rowOf(page, "changing").locator(".question", { hasText: "what after first?" }).waitFor();
  await rowOf(page, "changing").locator(".name").click();
  await page.locator(".answering", { hasText: "what after first?" }).waitFor();
  await page.fill(".reply-text", "meant for first");
  await fleet.daemon.cli(["reply", id, "second"]);
  await page.locator(".changed", { hasText: "It asks something else now: what after second?" }).waitFor();
  await page.click(".send");
  await page.locator(".notice", { hasText: "changing asks something else now: the reply is held" }).waitFor();
  assert.deepEqual(handled(id), ["first", "second"]);
  // Sent, the box answers what it asks now; changed again, it says so until told to take the new one.
  await page.locator(".answering", { hasText: "what after second?" }).waitFor();
  await fleet.daemon.cli(["reply", id, "third"]);
  await page.locator(".changed", { hasText: "what after third?" }).waitFor();
  await page.click(".take-question");
  await page.locator(".answering", { hasText: "what after third?" }).waitFor();
  assert.equal(await page.locator(".changed").isVisible(), false);
  await context.close();
});

test("markup in a summary, a question and a screen is shown as text: no element made, no script run", {
  skip,
}, async () => {
  const markup = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>';
  const id = await dispatch("asker", "<i>named</i>");
  await waitFor("the agent to connect", () => handled(id) && true);
  await fleet.daemon.cli(["reply", id, markup]);
  const screen = await dispatch("markup", "screen");
  const { page, context, errors } = await openPage();
  const row = rowOf(page, "<i>named</i>");
  await row.locator(".says", { hasText: `handled #1: ${markup}` }).waitFor();
  await row.locator(".question", { hasText: `? what after ${markup}?` }).waitFor();
  await rowOf(page, "screen").locator(".name").click();
  await page
    .locator(".last-lines", { hasText: "<img src=x onerror=window.pwned=3><b>bold</b> on screen" })
    .waitFor();
  await row.locator(".name").click();
  await page.locator(".session .question", { hasText: markup }).waitFor();
  const made = await page.evaluate(
    '({ elements: document.querySelectorAll("main img, main script, main b, main i").length, pwned: window.pwned ?? null })',
  );
  assert.deepEqual(made, { elements: 0, pwned: null });
  assert.deepEqual(errors, []);
  await fleet.daemon.cli(["stop", screen]);
  await context.close();
});

test("the page tells of a session that starts waiting through the browser's notifications, once", {
  skip,
}, async () => {
  const browser: Browser = suite.browser;
  const context = await browser.newContext();
  // The desktop's notification surface is not there headless: the page's calls to it are recorded.
  await context.addInitScript(`
    window.shown = [];
    window.Notification = class {
      static permission = "granted";
      static requestPermission() { return Promise.resolve("granted"); }
      constructor(title, options) { window.shown.push({ title, body: options.body }); }
    };
  `);
  const page = await context.newPage();
  await page.goto(fleet.web.url);
  await page.locator(".status", { hasText: "live" }).waitFor();
  assert.equal(await page.locator(".notify-me").isVisible(), false, "no need to ask: allowed already");
  // Its first prompt is a wait for the person: told of once it holds.
  const id = await dispatch("asker", "notified");
  await waitFor("a notification", async () => (await shown(page)).length > 0);
  // Asked something, then something else, it still waits: no new moment.
  await fleet.daemon.cli(["reply", id, "plan"]);
  await rowOf(page, "notified").locator(".question", { hasText: "what after plan?" }).waitFor();
  await fleet.daemon.cli(["reply", id, "again"]);
  await rowOf(page, "notified").locator(".question", { hasText: "what after again?" }).waitFor();
  await fleet.daemon.cli(["reply", id, "exit"]);
  await waitFor("a second notification", async () => (await shown(page)).length > 1);
  assert.deepEqual(await shown(page), [
    { title: "notified waits for you", body: "ready" },
    { title: "notified is done", body: "finished" },
  ]);
  await context.close();
});
