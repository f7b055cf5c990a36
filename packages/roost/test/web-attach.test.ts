/**
 * Attaching to a terminal session in the page: Debian's chromium through playwright-core, against
 * a real daemon and the built `roost web`, with real programs under real pseudo-terminals. The
 * program's own records (its job folder's files) prove what reached it. Screenshots are kept under
 * the temp folder; the channel's attach ops are also driven over a plain WebSocket.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import WebSocket from "ws";
import { browserForSuite, browserMissing } from "../../warren/test/helpers/browser.js";
import { LIMITS } from "../src/protocol/limits.js";
import { WEB_COOKIE, WEB_INPUT_CHUNK, WEB_MAX_MESSAGE_BYTES } from "../src/protocol/web.js";
import { waitFor } from "./helpers/daemon.js";
import { receivedLines } from "./helpers/terminal.js";
import { dispatchNamed, openFleet, rowOf } from "./helpers/web-pages.js";
import { startWebFleet } from "./helpers/web-suite.js";

const suite = browserForSuite();
let fleet: Awaited<ReturnType<typeof startWebFleet>>;
const shots = mkdtempSync(join(tmpdir(), "roost-web-attach-shots-"));

before(async () => {
  fleet = await startWebFleet();
});
after(async () => {
  await fleet?.stop();
  process.stderr.write(`roost web attach screenshots: ${shots}\n`);
});

const skip = browserMissing || undefined;
const jobDir = (id: string) => join(fleet.daemon.stateDir, "jobs", id);
/** The sizes the program found itself at (`stty size`: rows, then columns), in order. */
const sizes = (id: string) =>
  readFileSync(join(jobDir(id), "sizes.txt"), "utf8")
    .split("\n")
    .filter(Boolean);

/** A page that records what its Content-Security-Policy refused. */
async function openRecorded(size?: { width: number; height: number }) {
  const opened = await openFleet(suite.browser, fleet.web.url, size);
  await opened.context.addInitScript(`
    window.refused = [];
    document.addEventListener("securitypolicyviolation", (e) => window.refused.push(e.violatedDirective));
  `);
  await opened.page.reload();
  await opened.page.locator(".status", { hasText: "live" }).waitFor();
  return opened;
}

const refused = (page: Page) => page.evaluate("window.refused");

/** Opens the session and attaches to it. */
async function attachTo(page: Page, name: string): Promise<void> {
  await rowOf(page, name).locator(".name").click();
  await page.locator(".session .attach").click();
  await page.locator(".terminal-view .xterm-rows").waitFor();
}

/** The terminal's screen as drawn: one line per row. */
async function screenText(page: Page): Promise<string> {
  const rows = await page.locator(".terminal-view .xterm-rows > div").allTextContents();
  return rows.join("\n").replaceAll("\u00a0", " ");
}

/** Waits for the screen to show this; time running out names what it showed. */
const screenShows = async (page: Page, text: string) => {
  try {
    await waitFor(`the terminal to show ${JSON.stringify(text)}`, async () =>
      (await screenText(page)).includes(text) ? true : undefined,
    );
  } catch (error) {
    (error as Error).message += `\n# it shows:\n${await screenText(page)}`;
    throw error;
  }
};

/** The size the page's terminal says it has, as `stty size` puts it (rows, then columns). */
async function shownSize(page: Page): Promise<string> {
  const [cols, rows] = ((await page.locator(".terminal-size").textContent()) ?? "").split("×");
  return `${rows} ${cols}`;
}

/** A new prompt program, and a page attached to it that shows its prompt. */
async function attachedTypist(name: string) {
  const id = await dispatchNamed(fleet.daemon, "typist", name);
  const opened = await openRecorded();
  await attachTo(opened.page, name);
  await screenShows(opened.page, "type a line>");
  return { id, ...opened };
}

async function typeLine(page: Page, text: string): Promise<void> {
  await page.locator(".terminal-screen").click();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

test("attach shows a real program's screen, types into it, follows the window's size; markup is text", {
  skip,
}, async () => {
  const { id, page, context, errors } = await attachedTypist("typist");
  await page.locator(".terminal-note", { hasText: "Keys typed here reach it" }).waitFor();
  // The markup on its screen is drawn as text: no element made, no handler run.
  await screenShows(page, '<img src=x onerror="window.pwned=4"> drawn as text');
  assert.deepEqual(
    await page.evaluate('({ imgs: document.querySelectorAll("img").length, pwned: window.pwned ?? null })'),
    {
      imgs: 0,
      pwned: null,
    },
  );

  // xterm.js's styles apply: its theme (a monospace font) and a cell's 24-bit colour.
  await screenShows(page, "in 24-bit colour");
  assert.deepEqual(
    await page.evaluate(`(() => {
      const cell = [...document.querySelectorAll(".xterm-rows span")].find((s) => s.textContent.includes("24-bit"));
      return { color: getComputedStyle(cell).color, font: getComputedStyle(cell.parentElement).fontFamily };
    })()`),
    { color: "rgb(255, 128, 0)", font: "ui-monospace, monospace" },
  );

  // Holding the keyboard, the page gave the program its size as it attached.
  const first = await shownSize(page);
  await waitFor("the program at the page's size", () => sizes(id).at(-1) === first || undefined);
  await screenShows(page, `size ${first}`);

  await typeLine(page, "hello");
  await screenShows(page, "echo: hello");
  await waitFor("the line to reach the program", () => receivedLines(jobDir(id)).length > 0 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [hello]"]);

  // A smaller window: a smaller terminal, and the program told (SIGWINCH).
  await page.setViewportSize({ width: 900, height: 500 });
  await waitFor("the terminal to fit the window", async () => (await shownSize(page)) !== first || undefined);
  const second = await shownSize(page);
  await waitFor("the program at the new size", () => sizes(id).at(-1) === second || undefined);
  await screenShows(page, `size ${second}`);
  await page.screenshot({ path: join(shots, "terminal-desktop.png") });

  // xterm.js ran under the page's policy with nothing of it refused.
  assert.deepEqual(await refused(page), []);
  assert.deepEqual(errors, []);
  await page.locator(".detach").click();
  await page.locator(".rows").waitFor();
  assert.equal(await page.locator(".terminal-view").count(), 0);
  await context.close();
});

test("a second page attached watches, says so, and takes the keyboard when the first goes Back", {
  skip,
}, async () => {
  const { id, ...holder } = await attachedTypist("shared");
  await holder.page.locator(".terminal-note", { hasText: "Keys typed here reach it" }).waitFor();
  const phone = await openRecorded({ width: 390, height: 844 });
  await attachTo(phone.page, "shared");
  await phone.page
    .locator(".terminal-note", { hasText: "Watching: another attached terminal or page has the keyboard" })
    .waitFor();
  await screenShows(phone.page, "type a line>");
  const held = await shownSize(holder.page);

  // The watcher's keys go nowhere: the holder's line reaches the program alone.
  await phone.page.locator(".terminal-screen").click();
  await phone.page.keyboard.type("intruder");
  await typeLine(holder.page, "mine");
  await waitFor("the holder's line", () => receivedLines(jobDir(id)).length > 0 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [mine]"]);
  await screenShows(phone.page, "echo: mine");
  assert.equal(sizes(id).at(-1), held, "the watcher's size did not reach the program");
  await phone.page.screenshot({ path: join(shots, "terminal-phone-watching.png") });

  // The browser's Back leaves the terminal: the watcher has the keyboard, and its size reaches the program.
  await holder.page.goBack();
  await holder.page.locator(".rows").waitFor();
  await phone.page.locator(".terminal-note", { hasText: "You have the keyboard now" }).waitFor();
  const phoneSize = await shownSize(phone.page);
  await waitFor("the program at the phone's size", () => sizes(id).at(-1) === phoneSize || undefined);
  await typeLine(phone.page, "second");
  await waitFor("the phone's line", () => receivedLines(jobDir(id)).length > 1 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [mine]", "got [second]"]);
  await phone.page.screenshot({ path: join(shots, "terminal-phone.png") });
  const width = (await phone.page.evaluate("document.documentElement.scrollWidth")) as number;
  assert.ok(width <= 390, `no sideways scrolling at 390 px (${width})`);
  assert.deepEqual(await refused(phone.page), []);
  assert.deepEqual([...holder.errors, ...phone.errors], []);
  await holder.context.close();
  await phone.context.close();
});

test("a paste longer than the daemon takes at once goes in pieces, all of it, in order", {
  skip,
}, async () => {
  const id = await dispatchNamed(fleet.daemon, "rawCount", "paste");
  const { page, context } = await openRecorded();
  const pieces: number[] = [];
  page.on("websocket", (socket) =>
    socket.on("framesent", (frame) => {
      const message = JSON.parse(String(frame.payload)) as { op?: string; args?: { data?: string } };
      if (message.op === "attach-input") pieces.push(message.args?.data?.length ?? 0);
    }),
  );
  await page.reload();
  await attachTo(page, "paste");
  await screenShows(page, "pasting");
  const text = Array.from({ length: 120_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
  await page.locator(".terminal-screen").click();
  await page.keyboard.insertText(text);
  await screenShows(page, "pasted");
  assert.equal(readFileSync(join(jobDir(id), "pasted.txt"), "utf8"), text);
  assert.ok(pieces.length >= 3, `sent in ${pieces.length} pieces`);
  assert.ok(Math.max(...pieces) <= WEB_INPUT_CHUNK && WEB_INPUT_CHUNK < LIMITS.replyText);
  assert.equal(
    pieces.reduce((a, b) => a + b, 0),
    text.length,
  );
  await context.close();
});

test("a page's socket dropped while attached attaches again by itself, and typing goes on", {
  skip,
}, async () => {
  const id = await dispatchNamed(fleet.daemon, "typist", "dropped");
  const context: BrowserContext = await suite.browser.newContext();
  const page = await context.newPage();
  let sockets = 0;
  let drop = () => {};
  await page.routeWebSocket(/\/live$/, (ws) => {
    sockets++;
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => ws.send(message));
    drop = () => ws.close();
  });
  await page.goto(fleet.web.url);
  await attachTo(page, "dropped");
  await screenShows(page, "type a line>");
  drop();
  await waitFor("a second socket", () => sockets >= 2 || undefined);
  await page.locator(".terminal-note", { hasText: "Keys typed here reach it" }).waitFor();
  await typeLine(page, "after the break");
  await waitFor("the line", () => receivedLines(jobDir(id)).length > 0 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [after the break]"]);
  await context.close();
});

test("the daemon killed while attached: the page says so, attaches again once it is back, typing goes on", {
  skip,
}, async () => {
  const { id, page, context, errors } = await attachedTypist("outlived");
  await fleet.daemon.kill("SIGKILL");
  await page.locator(".terminal-note", { hasText: "The connection broke" }).waitFor();
  await fleet.daemon.start();
  // The job ran on in the process host: its screen is drawn again, and keys reach it.
  await page.locator(".terminal-note", { hasText: "Keys typed here reach it" }).waitFor();
  await screenShows(page, "type a line>");
  await typeLine(page, "still here");
  await waitFor("the line", () => receivedLines(jobDir(id)).length > 0 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [still here]"]);
  assert.deepEqual(errors, []);
  await context.close();
});

/** A page's channel over a plain WebSocket: its ops answered by `rid`, its terminal messages kept. */
async function channel() {
  const socket = new WebSocket(`${fleet.web.base.replace("http", "ws")}/live`, {
    headers: { origin: fleet.web.base, cookie: `${WEB_COOKIE}=${fleet.web.token}` },
  });
  const messages: Record<string, unknown>[] = [];
  socket.on("message", (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once("open", resolve));
  let rid = 0;
  const call = async (op: string, args: unknown) => {
    const mine = ++rid;
    socket.send(JSON.stringify({ type: "op", rid: mine, op, args }));
    return waitFor(`the answer to ${op}`, () =>
      messages.find((m) => m.type === "answer" && m.rid === mine),
    ) as Promise<{ ok: boolean; code?: string; error?: string; result?: Record<string, unknown> }>;
  };
  return { socket, messages, call };
}

test("the channel's attach ops: one writer among pages, the daemon's limits, the end of a socket ends its attachment", async () => {
  const id = await dispatchNamed(fleet.daemon, "typist", "wire");
  await waitFor("its prompt", async () => {
    const described = JSON.parse((await fleet.daemon.cli(["describe", id, "--json"])).stdout) as {
      lastLines: string[];
    };
    return described.lastLines.some((line) => line.includes("type a line>")) || undefined;
  });
  const first = await channel();
  const second = await channel();
  // Keys from a page not attached, and sizes out of the daemon's range, are refused with their code.
  assert.equal((await first.call("attach-input", { id, data: "x" })).code, "bad_request");
  assert.equal((await first.call("attach", { id, cols: 1, rows: 24 })).code, "bad_request");

  const attached = await first.call("attach", { id, cols: 100, rows: 30 });
  assert.equal(attached.ok, true, attached.error);
  assert.equal(attached.result?.keyboard, true);
  assert.match(String(attached.result?.screen), /type a line>/);
  const watching = await second.call("attach", { id, cols: 60, rows: 20 });
  assert.equal(watching.result?.keyboard, false);
  assert.equal((await second.call("attach-input", { id, data: "no\r" })).code, "locked");
  assert.equal((await second.call("attach-resize", { id, cols: 60, rows: 20 })).code, "locked");

  assert.equal((await first.call("attach-input", { id, data: "ok\r" })).ok, true);
  await waitFor("the holder's line", () => receivedLines(jobDir(id)).length > 0 || undefined);
  assert.deepEqual(receivedLines(jobDir(id)), ["got [ok]"]);
  // Its output reaches both pages.
  const echoed = (messages: Record<string, unknown>[]) =>
    messages.some((m) => m.type === "terminal" && JSON.stringify(m).includes("echo: ok"));
  await waitFor(
    "the output on both pages",
    () => (echoed(first.messages) && echoed(second.messages)) || undefined,
  );

  // The holder's socket closes: its attachment ends, and the keyboard passes to the other page.
  first.socket.close();
  await waitFor("the keyboard passed", () =>
    second.messages.find(
      (m) => m.type === "terminal" && (m.event as { event: string }).event === "terminal-keyboard",
    ),
  );
  assert.equal((await second.call("attach-resize", { id, cols: 70, rows: 22 })).ok, true);
  await waitFor("the program at the new size", () => sizes(id).at(-1) === "22 70" || undefined);
  assert.equal((await second.call("detach", { id })).ok, true);
  assert.equal((await second.call("attach-input", { id, data: "x" })).code, "bad_request");

  await fleet.daemon.cli(["stop", id]);
  second.socket.close();
});

test("the channel passes keys up to the daemon's limit for one input, and refuses one past it", async () => {
  const id = await dispatchNamed(fleet.daemon, "rawCount", "limit");
  const page = await channel();
  await waitFor("the program to take its keys raw", async () => {
    const answer = await page.call("attach", { id, cols: 80, rows: 24 });
    return (answer.ok && String(answer.result?.screen).includes("pasting")) || undefined;
  });
  const most = "a".repeat(LIMITS.replyText);
  assert.equal((await page.call("attach-input", { id, data: `${most}b` })).code, "bad_request");
  assert.equal((await page.call("attach-input", { id, data: most })).ok, true);
  const rest = "c".repeat(120_000 - LIMITS.replyText);
  assert.equal((await page.call("attach-input", { id, data: rest })).ok, true);
  await waitFor(
    "the program to have all of it",
    () => readFileSync(join(jobDir(id), "pasted.txt"), "utf8").length === 120_000 || undefined,
  );
  assert.equal(readFileSync(join(jobDir(id), "pasted.txt"), "utf8"), most + rest);

  // A message past the channel's own limit never reaches the daemon: the socket is closed.
  const closed = new Promise<number>((resolve) => page.socket.once("close", resolve));
  page.socket.send(
    JSON.stringify({
      type: "op",
      rid: 99,
      op: "attach-input",
      args: { id, data: "w".repeat(WEB_MAX_MESSAGE_BYTES) },
    }),
  );
  assert.equal(await closed, 1009, "a message too big closes the socket");
  await fleet.daemon.cli(["stop", id]);
});
