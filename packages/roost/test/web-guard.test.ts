/**
 * `roost web`'s guard, over real HTTP and a real WebSocket against a real daemon: the token kept
 * owner-only and traded for an HttpOnly, SameSite=Strict cookie; without it every route and the push
 * channel answer 401; a foreign Host or Origin is refused; the token is in no log, row or event.
 */
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import WebSocket from "ws";
import { WEB_COOKIE } from "../src/protocol/web.js";
import { webTokenPath } from "../src/web/web-token.js";
import { startTestDaemon, type TestDaemon } from "./helpers/daemon.js";
import { startWeb, type TestWeb } from "./helpers/web-suite.js";

let daemon: TestDaemon;
let web: TestWeb;
before(async () => {
  daemon = await startTestDaemon();
  web = await startWeb(daemon.home);
});
after(async () => {
  await web?.stop();
  await daemon?.stop();
});

const cookie = () => `${WEB_COOKIE}=${web.token}`;

/** Opens the push channel with these headers: resolves with the status of a refusal, or 101 once open. */
function channel(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${web.base.replace("http", "ws")}/live`, { headers });
    socket.on("open", () => {
      socket.close();
      resolve(101);
    });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on("error", (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

test("the token is made at the first start, kept owner-only, and printed once as the address", () => {
  assert.match(web.token, /^[0-9a-f]{64}$/);
  const path = webTokenPath(daemon.home);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(readFileSync(path, "utf8").trim(), web.token);
  assert.equal(web.stdout().split(web.token).length - 1, 1, web.stdout());
  assert.match(web.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
});

test("the printed address trades its token for an HttpOnly, SameSite=Strict cookie and leaves the address", async () => {
  const response = await fetch(web.url, { redirect: "manual" });
  assert.equal(response.status, 303);
  assert.equal(response.headers.get("location"), "/");
  assert.equal(response.headers.get("set-cookie"), `${cookie()}; HttpOnly; SameSite=Strict; Path=/`);
  const wrong = await fetch(`${web.base}/?token=${"0".repeat(64)}`, { redirect: "manual" });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get("set-cookie"), null);
});

test("without the cookie every route and the push channel answer 401; with it they answer", async () => {
  for (const path of ["/", "/page.js", "/page.css", "/live", "/nothing", "/?token="]) {
    const response = await fetch(`${web.base}${path}`, { redirect: "manual" });
    assert.equal(response.status, 401, path);
  }
  const post = await fetch(`${web.base}/`, { method: "POST", body: "{}" });
  assert.equal(post.status, 401);
  const wrongCookie = await fetch(`${web.base}/`, { headers: { cookie: `${WEB_COOKIE}=${"f".repeat(64)}` } });
  assert.equal(wrongCookie.status, 401);
  assert.equal(await channel({ origin: web.base }), 401);
  assert.equal(await channel({ origin: web.base, cookie: `${WEB_COOKIE}=nope` }), 401);

  const page = await fetch(`${web.base}/`, { headers: { cookie: cookie() } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  assert.match(await page.text(), /<script type="module" src="\/page.js">/);
  const script = await fetch(`${web.base}/page.js`, { headers: { cookie: cookie() } });
  assert.equal(script.status, 200);
  assert.match(script.headers.get("content-type") ?? "", /javascript/);
  assert.equal((await fetch(`${web.base}/nothing`, { headers: { cookie: cookie() } })).status, 404);
  assert.equal(await channel({ origin: web.base, cookie: cookie() }), 101);
});

test("a foreign Host (DNS rebinding) or Origin (a cross-site socket) is refused, cookie or not", async () => {
  const port = new URL(web.base).port;
  // fetch sets Host itself: a raw request names another.
  const rebound = await new Promise<number>((resolve, reject) =>
    request(`${web.base}/`, { headers: { cookie: cookie(), host: `evil.example:${port}` } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on("error", reject)
      .end(),
  );
  assert.equal(rebound, 403);
  const crossSite = await fetch(`${web.base}/page.js`, {
    headers: { cookie: cookie(), origin: "http://evil.example" },
  });
  assert.equal(crossSite.status, 403);
  assert.equal(await channel({ origin: "http://evil.example", cookie: cookie() }), 403);
  assert.equal(await channel({ origin: `http://localhost:${Number(port) + 1}`, cookie: cookie() }), 403);
  // A socket with no Origin is no browser's: refused too.
  assert.equal(await channel({ cookie: cookie() }), 403);
  // Another name of this machine is another origin than the page's own.
  assert.equal(await channel({ origin: `http://localhost:${port}`, cookie: cookie() }), 403);
  assert.equal(await channel({ origin: web.base, cookie: cookie() }), 101);
});

test("the push channel takes only the page's ops, and answers a bad message with its code", async () => {
  const socket = new WebSocket(`${web.base.replace("http", "ws")}/live`, {
    headers: { origin: web.base, cookie: cookie() },
  });
  const messages: { type: string; rid?: number; ok?: boolean; code?: string }[] = [];
  socket.on("message", (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once("open", resolve));
  socket.send("not json");
  socket.send(JSON.stringify({ type: "op", rid: 1, op: "shutdown", args: {} }));
  socket.send(JSON.stringify({ type: "op", rid: 2, op: "reply", args: { id: "x", text: "hi" } }));
  socket.send(JSON.stringify({ type: "op", rid: 3, op: "describe", args: { id: "no-such-job" } }));
  const answers = () => messages.filter((m) => m.type === "answer");
  while (answers().length < 4) await new Promise((resolve) => socket.once("message", resolve));
  assert.deepEqual(
    answers().map((m) => [m.rid, m.code]),
    [
      [-1, "bad_request"],
      [-1, "bad_request"],
      [2, "bad_request"],
      [3, "not_found"],
    ],
  );
  assert.ok(messages.some((m) => m.type === "rows"));
  socket.close();
  // The daemon still runs: the refused shutdown never reached it.
  assert.equal((await daemon.cli(["ls", "--json"])).code, 0);
});

test("the token is in no log, row or event, and --rotate-token makes the old one useless", async () => {
  await daemon.cli(["dispatch", "missing-profile"]).catch(() => {});
  const logs = [readFileSync(join(daemon.stateDir, "daemon.log"), "utf8"), web.stderr()];
  for (const text of logs) assert.ok(!text.includes(web.token));
  const ls = await daemon.cli(["ls", "--json"]);
  const events = await daemon.cli(["events", "--json"]);
  assert.ok(!ls.stdout.includes(web.token) && !events.stdout.includes(web.token));
  assert.ok(!readFileSync(join(daemon.stateDir, "roost.db")).includes(web.token));

  const old = web.token;
  await web.stop();
  web = await startWeb(daemon.home, ["--rotate-token"]);
  assert.notEqual(web.token, old);
  assert.equal(readFileSync(webTokenPath(daemon.home), "utf8").trim(), web.token);
  assert.equal((await fetch(`${web.base}/`, { headers: { cookie: `${WEB_COOKIE}=${old}` } })).status, 401);
  assert.equal((await fetch(`${web.base}/`, { headers: { cookie: cookie() } })).status, 200);
});

test("listening beyond loopback needs --host and says so; a port in use is a clear error", async () => {
  const wide = await startWeb(daemon.home, ["--host", "0.0.0.0"]);
  try {
    assert.match(wide.stderr(), /warning: listening on 0\.0\.0\.0, beyond this machine/);
    assert.match(wide.url, /^http:\/\/0\.0\.0\.0:\d+\//);
  } finally {
    await wide.stop();
  }
  assert.doesNotMatch(web.stderr(), /warning/);
  const port = new URL(web.base).port;
  const taken = await daemon.cli(["web", "--port", port]);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /roost web: bad_request: cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
  const bad = await daemon.cli(["web", "--port", "http"]);
  assert.match(bad.stderr, /bad_request: --port must be a whole number/);
});
