/**
 * What the page starts, restarts and removes, and a worktree job's diff: Debian's chromium through
 * playwright-core against a real daemon and the built `roost web`, with the protocol test agent and
 * agents that change a real git repository's worktree. What the page sends is recorded on its way
 * (so a confirmation kept sends nothing), and the daemon's rows, the agent's log and git say what
 * happened. Screenshots at desktop and phone sizes are kept under the temp folder.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import WebSocket from "ws";
import { browserForSuite, browserMissing } from "../../warren/test/helpers/browser.js";
import type { JobRow } from "../src/protocol/rows.js";
import { WEB_COOKIE } from "../src/protocol/web.js";
import { startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { git, makeRepository, WORKTREE_PROFILES } from "./helpers/git-repo.js";
import { dispatchNamed, openFleet, rowOf } from "./helpers/web-pages.js";
import { startWeb, type TestWeb, webProfiles } from "./helpers/web-suite.js";

/** A file name and a line of text an agent writes into its worktree, both markup. */
const MARKUP_FILE = "<img src=x onerror=window.pwned=4>.txt";
const MARKUP_TEXT = "<script>window.pwned=5</script><b>bold</b>";

const suite = browserForSuite();
const shots = mkdtempSync(join(tmpdir(), "roost-web-ops-shots-"));
const logDir = mkdtempSync(join(tmpdir(), "roost-web-log-"));
let daemon: TestDaemon;
let web: TestWeb;
let repo = "";

before(async () => {
  if (browserMissing) return;
  daemon = await startTestDaemon({
    config: {
      agentProfiles: {
        ...webProfiles(logDir).agentProfiles,
        ...WORKTREE_PROFILES,
        /** Writes its task into shared.txt and into a file named with markup, uncommitted. */
        marker: {
          command: [
            "/bin/sh",
            "-c",
            `printf "%s\\n" "$1" > shared.txt; printf "%s\\n" "$1" > "${MARKUP_FILE}"; exec sleep 600`,
            "sh",
          ],
          task: "argv",
          protocol: false,
        },
      },
    },
  });
  repo = makeRepository({ "shared.txt": "base\n" }, daemon.home);
  web = await startWeb(daemon.home);
});
after(async () => {
  await web?.stop();
  await daemon?.stop();
  process.stderr.write(`roost web ops screenshots: ${shots}\n`);
});

const skip = browserMissing || undefined;
const PHONE = { width: 390, height: 844 };

const rows = async (): Promise<JobRow[]> => JSON.parse((await daemon.cli(["ls", "--json"])).stdout);
const rowNamed = async (name: string) => (await rows()).filter((row) => row.name === name);

/** What the test agent did, as its log says: its starts, and the replies it handled. */
const agentLog = (id: string) => {
  const file = join(logDir, `${id}.jsonl`);
  const entries = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; text?: string })
    : [];
  return {
    starts: entries.filter((e) => e.event === "start").length,
    handled: entries.filter((e) => e.event === "handled").map((e) => e.text),
  };
};

/**
 * The page with every op it sends recorded on its way to roost web; `dropAfter` closes the page's
 * socket once that op has gone through, before its answer comes back (the page then reconnects).
 */
async function recordedPage(size = { width: 1280, height: 800 }, dropAfter?: string) {
  const context: BrowserContext = await suite.browser.newContext({ viewport: size });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const sent: { op: string; args: Record<string, unknown> }[] = [];
  let sockets = 0;
  let dropped = false;
  await page.routeWebSocket(/\/live$/, (ws) => {
    sockets++;
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      server.send(message);
      const request = JSON.parse(String(message)) as { op: string; args: Record<string, unknown> };
      sent.push(request);
      if (!dropped && request.op === dropAfter) {
        dropped = true;
        ws.close();
      }
    });
    server.onMessage((message) => ws.send(message));
  });
  await page.goto(web.url);
  await page.locator(".status", { hasText: "live" }).waitFor();
  return {
    page,
    context,
    errors,
    sent: (op: string) => sent.filter((request) => request.op === op),
    sockets: () => sockets,
  };
}

test("a job dispatched from the page runs; sent again over a dropped connection it is made once", {
  skip,
}, async () => {
  const folder = mkdtempSync(join(tmpdir(), "roost-web-folder-"));
  const { page, context, errors, sent } = await recordedPage();
  await page.click(".new");
  await page.locator(".dispatch-profile option", { hasText: /^asker$/ }).waitFor({ state: "attached" });
  const offered = await page.locator(".dispatch-profile option").allTextContents();
  assert.deepEqual(offered.slice(0, 3), ["asker", "proceed", "markup"], "roost.json's profiles, in order");
  assert.ok(offered.includes("pi"), "and the built-in ones");
  await page.selectOption(".dispatch-profile", "asker");
  // A folder that is not there: the daemon refuses it, and the form stays as it was.
  await page.fill(".dispatch-task", "plan");
  await page.fill(".dispatch-name", "from-page");
  await page.fill(".dispatch-folder", join(folder, "missing"));
  await page.click(".dispatch-send");
  await page.locator(".dispatch-state", { hasText: /bad_request: cwd .*missing is not a folder/ }).waitFor();
  assert.equal(await page.locator(".dispatch").isVisible(), true);
  assert.deepEqual(await rowNamed("from-page"), []);
  await page.screenshot({ path: join(shots, "desktop-dispatch-refused.png") });

  await page.fill(".dispatch-folder", folder);
  await page.click(".dispatch-send");
  const started = page.locator(".notice", { hasText: /^Started from-page \(\w+\) from asker\.$/ });
  await started.waitFor();
  assert.equal(await page.locator(".dispatch").isVisible(), false, "the form closes once it started");
  const [job] = await rowNamed("from-page");
  assert.ok(job, "the job is the daemon's");
  assert.equal(job.cwd, folder);
  assert.equal(job.task, "plan");
  // It runs: the agent took its task as its first reply, and the page shows what it asks next.
  await rowOf(page, "from-page").locator(".question", { hasText: "what after plan?" }).waitFor();
  assert.deepEqual(agentLog(job.id).handled, ["plan"]);
  const requests = sent("dispatch");
  assert.equal(requests.length, 2, "the refused one and the one that started");
  assert.notEqual(requests[0]?.args.requestId, requests[1]?.args.requestId, "a request id per press");
  assert.match(String(requests[1]?.args.requestId), /^web-/);
  assert.deepEqual(errors, []);
  await context.close();

  // The connection breaks as the dispatch goes: the page sends it again with the same id, and one job is made.
  const dropping = await recordedPage(undefined, "dispatch");
  await dropping.page.click(".new");
  await dropping.page
    .locator(".dispatch-profile option", { hasText: /^asker$/ })
    .waitFor({ state: "attached" });
  await dropping.page.selectOption(".dispatch-profile", "asker");
  await dropping.page.fill(".dispatch-task", "once");
  await dropping.page.fill(".dispatch-name", "once");
  await dropping.page.click(".dispatch-send");
  await dropping.page.locator(".notice", { hasText: /^Started once \(\w+\) from asker\.$/ }).waitFor();
  assert.ok(dropping.sockets() >= 2, `the page reconnected (${dropping.sockets()} sockets)`);
  const resent = dropping.sent("dispatch");
  // Once on the socket that broke, once on the next: not again when that one says the daemon is there.
  assert.equal(resent.length, 2, "sent, then sent again once after the break");
  assert.deepEqual(new Set(resent.map((request) => request.args.requestId)).size, 1, "each with the same id");
  const once = await rowNamed("once");
  assert.equal(once.length, 1, "one job");
  assert.deepEqual(
    (await rows()).filter((row) => row.name.startsWith("once")).map((row) => row.name),
    ["once"],
  );
  await waitFor("the agent to take its task", () => agentLog(once[0]!.id).handled.length > 0 || undefined);
  assert.deepEqual(agentLog(once[0]!.id).handled, ["once"]);
  await dropping.context.close();

  // At phone size: the form's buttons are thumb-sized and nothing scrolls sideways.
  const phone = await openFleet(suite.browser, web.url, PHONE);
  await phone.page.click(".new");
  await phone.page.locator(".dispatch-profile option", { hasText: /^asker$/ }).waitFor({ state: "attached" });
  for (const selector of [".new", ".dispatch-send", ".dispatch .cancel"]) {
    const box = await phone.page.locator(selector).boundingBox();
    assert.ok(box && box.height >= 44, `${selector} is thumb-sized (${box?.height})`);
  }
  const width = (await phone.page.evaluate("document.documentElement.scrollWidth")) as number;
  assert.ok(width <= 390, `no sideways scrolling at 390 px (${width})`);
  await phone.page.screenshot({ path: join(shots, "phone-dispatch.png") });
  await phone.page.click(".dispatch .cancel");
  assert.equal(await phone.page.locator(".dispatch").isVisible(), false);
  await phone.context.close();
});

/** Opens the session of the row named so, once the daemon has it running. */
async function openSession(page: Page, name: string): Promise<void> {
  await waitFor(
    `${name} to run`,
    async () => (await rowNamed(name))[0]?.lifecycle === "running" || undefined,
  );
  await rowOf(page, name).locator(".name").click();
  await page.locator(".session h2", { hasText: name }).waitFor();
}

test("respawn and remove each ask first: kept, nothing is sent; confirmed, it is done", {
  skip,
}, async () => {
  const worker = await dispatchNamed(daemon, "asker", "worker");
  const doomed = await dispatchNamed(daemon, "asker", "doomed");
  await waitFor(
    "the agents to start",
    () => (agentLog(worker).starts && agentLog(doomed).starts) || undefined,
  );
  const { page, context, errors, sent } = await recordedPage();
  await openSession(page, "worker");
  const pid = (await rowNamed("worker"))[0]?.pid;
  await page.click(".session .respawn");
  const confirm = page.locator(".session .confirm");
  await confirm.locator("span", { hasText: "Respawn worker? Its process ends and starts again." }).waitFor();
  await page.screenshot({ path: join(shots, "desktop-respawn-confirm.png") });
  await confirm.locator(".keep").click();
  assert.equal(await confirm.textContent(), "", "the question is gone");
  assert.deepEqual(sent("respawn"), [], "kept: nothing sent");
  await page.click(".session .respawn");
  await confirm.locator(".danger", { hasText: "Respawn it" }).click();
  await page.locator(".notice", { hasText: /^Started worker again\.$/ }).waitFor();
  await waitFor("the agent to start again", () => agentLog(worker).starts === 2 || undefined);
  await waitFor("a new process", async () => {
    const row = (await rowNamed("worker"))[0];
    return (row?.lifecycle === "running" && row.pid !== null && row.pid !== pid) || undefined;
  });
  assert.equal(sent("respawn").length, 1);
  assert.equal(agentLog(worker).starts, 2, "started once more, not twice");

  // A job that has ended is only started again, and asked so.
  await daemon.cli(["reply", doomed, "exit"]);
  await waitFor(
    "doomed to be done",
    async () => (await rowNamed("doomed"))[0]?.lifecycle === "done" || undefined,
  );
  await rowOf(page, "doomed").locator(".name").click();
  await page.locator(".session h2", { hasText: "doomed" }).waitFor();
  await page.click(".session .respawn");
  await confirm.locator("span", { hasText: /^Respawn doomed\? It starts again\.$/ }).waitFor();
  await confirm.locator(".danger").click();
  await waitFor("doomed to start again", () => agentLog(doomed).starts === 2 || undefined);

  await openSession(page, "doomed");
  await page.click(".session .remove");
  await confirm
    .locator("span", { hasText: "Remove doomed? Its process ends and its folder is deleted." })
    .waitFor();
  await confirm.locator(".keep").click();
  assert.deepEqual(sent("rm"), [], "kept: nothing sent");
  assert.equal((await rowNamed("doomed")).length, 1);
  await page.click(".session .remove");
  await confirm.locator(".danger", { hasText: "Remove it" }).click();
  await page.locator(".notice", { hasText: /^Removed doomed\.$/ }).waitFor();
  await rowOf(page, "doomed").waitFor({ state: "detached" });
  assert.equal(await page.locator(".session").count(), 0, "its view closed with it");
  assert.deepEqual(await rowNamed("doomed"), []);
  assert.equal(existsSync(join(daemon.stateDir, "jobs", doomed)), false, "its folder is gone");
  assert.deepEqual(
    sent("rm").map((request) => request.args),
    [{ id: doomed, force: false }],
  );
  assert.deepEqual(errors, []);
  await context.close();

  // At phone size the buttons and the question's are thumb-sized, and nothing scrolls sideways.
  const phone = await openFleet(suite.browser, web.url, PHONE);
  await openSession(phone.page, "worker");
  await phone.page.click(".session .respawn");
  await phone.page.locator(".session .confirm .danger").waitFor();
  for (const selector of [".session .respawn", ".session .remove", ".confirm .danger", ".confirm .keep"]) {
    const box = await phone.page.locator(selector).boundingBox();
    assert.ok(box && box.height >= 44, `${selector} is thumb-sized (${box?.height})`);
  }
  const width = (await phone.page.evaluate("document.documentElement.scrollWidth")) as number;
  assert.ok(width <= 390, `no sideways scrolling at 390 px (${width})`);
  await phone.page.screenshot({ path: join(shots, "phone-respawn-confirm.png") });
  await phone.page.click(".confirm .keep");
  assert.deepEqual(phone.errors, []);
  await phone.context.close();
  assert.equal(agentLog(worker).starts, 2, "the phone's question kept, nothing started");
});

test("a worktree job's diff shows its files and patch as text, follows its work; its unsaved work asks again before rm", {
  skip,
}, async () => {
  const out = await daemon.cli([
    "dispatch",
    "marker",
    MARKUP_TEXT,
    "--worktree",
    "--cwd",
    repo,
    "--name",
    "wt",
    "--json",
  ]);
  assert.equal(out.code, 0, out.stderr);
  const id = (JSON.parse(out.stdout) as { id: string }).id;
  await waitFor(
    "its worktree's two files",
    async () => (await rowNamed("wt"))[0]?.worktree?.files === 2 || undefined,
  );
  await dispatchNamed(daemon, "asker", "plain");
  const { page, context, errors, sent } = await recordedPage();
  await openSession(page, "plain");
  assert.equal(await page.locator(".session .diff").isVisible(), false, "no worktree, no Diff");
  await openSession(page, "wt");
  await page.click(".session .diff");
  const view = page.locator(".diff-view");
  await view.locator(".diff-path", { hasText: MARKUP_FILE }).waitFor();
  assert.deepEqual(
    (await view.locator(".diff-path").allTextContents()).sort(),
    [MARKUP_FILE, "shared.txt"].sort(),
  );
  assert.match((await view.locator(".diff-head").textContent()) ?? "", /^roost\/wt ↑0 ↓0 · 2 files \+2 −1/);
  assert.equal(await view.locator(".diff-total").textContent(), "2 files +2 −1");
  assert.ok((await view.locator(".patch-add").allTextContents()).includes(`+${MARKUP_TEXT}\n`));
  assert.ok((await view.locator(".patch-remove").allTextContents()).includes("-base\n"));
  const made = await page.evaluate(
    '({ elements: document.querySelectorAll("main img, main script, main b").length, pwned: window.pwned ?? null })',
  );
  assert.deepEqual(made, { elements: 0, pwned: null }, "markup in a file's name and text is text");
  await page.screenshot({ path: join(shots, "desktop-diff.png") });

  // The view follows the worktree: a file written there shows without asking.
  const worktree = (await rowNamed("wt"))[0]?.worktree?.path;
  assert.ok(worktree);
  writeFileSync(join(worktree, "later.txt"), "later\n");
  await view.locator(".diff-path", { hasText: "later.txt" }).waitFor();
  assert.ok(sent("diff").length >= 2, "asked again");
  await page.click(".close-diff");
  assert.equal(await view.isVisible(), false);

  // Unsaved work: the daemon refuses, says why, and the view asks whether to remove it anyway.
  const confirm = page.locator(".session .confirm");
  await page.click(".session .remove");
  await confirm
    .locator("span", {
      hasText:
        "Remove wt? Its process ends and its folder is deleted. Its worktree goes; its branch roost/wt stays.",
    })
    .waitFor();
  await confirm.locator(".danger", { hasText: "Remove it" }).click();
  await confirm
    .locator(".refused", { hasText: "wt's worktree holds 3 uncommitted file(s) on roost/wt" })
    .waitFor();
  await confirm.locator("span", { hasText: "Remove wt anyway?" }).waitFor();
  await page.screenshot({ path: join(shots, "desktop-rm-unsaved.png") });
  await confirm.locator(".keep").click();
  assert.equal((await rowNamed("wt")).length, 1, "refused, then kept");
  await page.click(".session .remove");
  await confirm.locator(".danger", { hasText: "Remove it" }).click();
  await confirm.locator(".danger", { hasText: "Remove anyway" }).click();
  await page
    .locator(".notice", {
      hasText: /^Removed wt; branch roost\/wt kept; uncommitted changes saved on roost\/saved\/wt\.$/,
    })
    .waitFor();
  assert.deepEqual(
    sent("rm").map((request) => request.args),
    [
      { id, force: false },
      { id, force: false },
      { id, force: true },
    ],
  );
  assert.deepEqual(await rowNamed("wt"), []);
  assert.equal(git(repo, "branch", "--list", "roost/saved/wt"), "roost/saved/wt");
  assert.equal(git(repo, "show", "roost/saved/wt:shared.txt"), MARKUP_TEXT);
  assert.deepEqual(errors, []);
  await context.close();
});

test("at phone size a job dispatched into a worktree from the form shows its diff within the width", {
  skip,
}, async () => {
  const phone = await openFleet(suite.browser, web.url, PHONE);
  await phone.page.click(".new");
  await phone.page
    .locator(".dispatch-profile option", { hasText: /^committer$/ })
    .waitFor({ state: "attached" });
  await phone.page.selectOption(".dispatch-profile", "committer");
  await phone.page.fill(".dispatch-task", "a long line ".repeat(40).trim());
  await phone.page.fill(".dispatch-name", "narrow");
  await phone.page.fill(".dispatch-folder", repo);
  await phone.page.check(".dispatch-worktree");
  await phone.page.click(".dispatch-send");
  await phone.page.locator(".notice", { hasText: /^Started narrow \(\w+\) from committer\.$/ }).waitFor();
  const row = await waitFor("its commit, in a worktree of its own", async () => {
    const [narrow] = await rowNamed("narrow");
    return narrow?.worktree?.ahead === 1 ? narrow : undefined;
  });
  assert.equal(row.worktree?.branch, "roost/narrow");
  assert.notEqual(row.cwd, repo, "it works in its worktree, not the checkout");
  await openSession(phone.page, "narrow");
  await phone.page.click(".session .diff");
  await phone.page.locator(".diff-path", { hasText: "shared.txt" }).waitFor();
  for (const selector of [".session .diff", ".close-diff"]) {
    const box = await phone.page.locator(selector).boundingBox();
    assert.ok(box && box.height >= 44, `${selector} is thumb-sized (${box?.height})`);
  }
  const width = (await phone.page.evaluate("document.documentElement.scrollWidth")) as number;
  assert.ok(width <= 390, `no sideways scrolling at 390 px (${width}): the patch scrolls in its box`);
  await phone.page.locator(".diff-view").scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: join(shots, "phone-diff.png") });
  assert.deepEqual(phone.errors, []);
  await phone.context.close();
});

test("the channel passes the new ops to the daemon, which checks each; a dispatch needs a request id", {
  skip,
}, async () => {
  const socket = new WebSocket(`${web.base.replace("http", "ws")}/live`, {
    headers: { origin: web.base, cookie: `${WEB_COOKIE}=${web.token}` },
  });
  const answers = new Map<number, { ok: boolean; code?: string; error?: string; result?: unknown }>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (message.type === "answer") answers.set(message.rid, message);
  });
  await new Promise((resolve) => socket.once("open", resolve));
  const ask = (rid: number, op: string, args: object) =>
    socket.send(JSON.stringify({ type: "op", rid, op, args }));
  ask(1, "dispatch", { profile: "asker", name: "no-id" });
  ask(2, "dispatch", { profile: "nobody", requestId: "web-test-1" });
  ask(3, "rm", { id: "no-such-job" });
  ask(4, "respawn", { id: "no-such-job" });
  ask(5, "diff", { id: "no-such-job" });
  ask(6, "profiles", {});
  ask(7, "merge", { id: "no-such-job" });
  await waitFor("the answers", () => (answers.size >= 7 ? true : undefined));
  const code = (rid: number) => answers.get(rid)?.code;
  assert.equal(code(1), "bad_request");
  assert.equal(answers.get(1)?.error, "a dispatch needs a requestId");
  assert.equal(code(2), "not_found", "an unknown profile, as the daemon says");
  assert.match(answers.get(2)?.error ?? "", /no profile "nobody"/);
  assert.equal(code(3), "not_found");
  assert.equal(code(4), "not_found");
  assert.equal(code(5), "not_found");
  assert.equal(answers.get(6)?.ok, true);
  // Not one of the page's ops: refused before any daemon sees it.
  assert.equal(answers.get(-1)?.code, "bad_request");
  assert.deepEqual(await rowNamed("no-id"), [], "nothing dispatched without a request id");
  socket.close();
});
