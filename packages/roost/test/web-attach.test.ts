/**
 * The page's channel for attaching, over a plain WebSocket against a real daemon and the built
 * `roost web`, with real programs under real pseudo-terminals: the program's own records (its job
 * folder's files) prove what reached it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import WebSocket from "ws";
import { LIMITS } from "../src/protocol/limits.js";
import { WEB_COOKIE, WEB_MAX_MESSAGE_BYTES } from "../src/protocol/web.js";
import { waitFor } from "./helpers/daemon.js";
import { receivedLines } from "./helpers/terminal.js";
import { dispatchNamed } from "./helpers/web-pages.js";
import { startWebFleet } from "./helpers/web-suite.js";

let fleet: Awaited<ReturnType<typeof startWebFleet>>;

before(async () => {
  fleet = await startWebFleet();
});
after(async () => {
  await fleet?.stop();
});

const jobDir = (id: string) => join(fleet.daemon.stateDir, "jobs", id);
/** The sizes the program found itself at (`stty size`: rows, then columns), in order. */
const sizes = (id: string) =>
  readFileSync(join(jobDir(id), "sizes.txt"), "utf8")
    .split("\n")
    .filter(Boolean);

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
