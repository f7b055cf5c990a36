import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { WebSocket } from "ws";
import { WarrenClient } from "../src/client/index.js";
import { browserForSuite, browserMissing, openPage } from "./helpers/browser.js";
import { call, serverForSuite, waitFor } from "./helpers/server.js";

const open = serverForSuite();
const TOKEN = "t-0123456789abcdef0123";
const guarded = serverForSuite({ token: TOKEN });
const suite = browserForSuite();
const json = { "content-type": "application/json" };
const bearer = { ...json, authorization: `Bearer ${TOKEN}` };

/** A request with the Host header given, which fetch does not let a caller set. */
function withHost(base: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The status a WebSocket upgrade was answered with (101 when it opened). */
function upgradeStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.on("open", () => {
      socket.close();
      resolve(101);
    });
    socket.on("unexpected-response", (req, res) => {
      req.destroy();
      resolve(res.statusCode!);
    });
    socket.on("error", reject);
  });
}

describe("requests a web page did not mean", () => {
  it("refuses a Host the server does not answer as, and takes its own and localhost's", async () => {
    const { port } = new URL(open.url);
    const foreign = await withHost(open.url, "/v1/runs", `rebound.example:${port}`);
    assert.equal(foreign.status, 403);
    assert.equal(JSON.parse(foreign.body).error, "host_not_allowed");
    assert.match(JSON.parse(foreign.body).detail, /does not answer as Host "rebound\.example:\d+"/);
    const page = await withHost(open.url, "/", "rebound.example");
    assert.equal(page.status, 403, "the viewer's pages too");
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      assert.equal((await withHost(open.url, "/v1/runs", host)).status, 200, host);
    }
  });

  it("refuses another site's Origin on the routes and the spectator socket, and answers OPTIONS without granting it", async () => {
    const created = await call(open.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: {},
    });
    const runId = created.json.run_id;
    const foreign = await call(open.url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: {},
      headers: { origin: "http://other.example:8000" },
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error, "origin_not_allowed");
    const ws = `${open.url.replace("http", "ws")}/v1/runs/${runId}/spectate`;
    assert.equal(await upgradeStatus(ws, "http://other.example:8000"), 403);
    assert.equal(await upgradeStatus(ws, "null"), 403, "a sandboxed page's origin is refused too");
    assert.equal(await upgradeStatus(ws, open.url), 101, "the server's own pages connect");
    assert.equal(await upgradeStatus(ws), 101, "a client without an Origin connects");
    const preflight = await fetch(`${open.url}/v1/runs`, {
      method: "OPTIONS",
      headers: { origin: open.url, "access-control-request-method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("allow"), "GET, POST, DELETE, OPTIONS");
    assert.equal(preflight.headers.get("access-control-allow-origin"), null);
    const foreignPreflight = await fetch(`${open.url}/v1/runs`, {
      method: "OPTIONS",
      headers: { origin: "http://other.example:8000", "access-control-request-method": "POST" },
    });
    assert.equal(foreignPreflight.status, 403);
    assert.equal(foreignPreflight.headers.get("access-control-allow-origin"), null);
  });

  describe("a page on another origin, in chromium", { skip: browserMissing }, () => {
    let site: ReturnType<typeof createServer>;
    let siteUrl: string;
    before(async () => {
      // Another origin: a plain page on another port that tries to make runs on the warren server.
      site = createServer((_req, res) => res.end("<!doctype html><title>elsewhere</title>"));
      await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });
    after(() => {
      site.closeAllConnections(); // the browser's keep-alive connections
      return new Promise<void>((resolve) => site.close(() => resolve()));
    });

    it("makes no run with a no-cors fetch or a form post", async () => {
      const before = (await call(open.url, "GET", "/v1/runs")).json.runs.length;
      const { page } = await openPage(suite.browser, `${siteUrl}/`);
      const target = `${open.url}/v1/runs?scenario=bridge_repair`;
      const sent = await page.evaluate(async (url) => {
        const tries = [
          fetch(url, { method: "POST", mode: "no-cors" }),
          fetch(url, {
            method: "POST",
            mode: "no-cors",
            body: "{}",
            headers: { "content-type": "text/plain" },
          }),
          fetch(url, { method: "POST", mode: "no-cors", body: new URLSearchParams({ a: "1" }) }),
        ];
        return (await Promise.allSettled(tries)).map((t) => t.status);
      }, target);
      assert.equal(sent.length, 3);
      // A plain form post, the oldest way a page sends a request to another site.
      await page.evaluate(`(() => {
        const form = document.createElement("form");
        form.method = "POST";
        form.action = ${JSON.stringify(target)};
        form.enctype = "text/plain";
        document.body.append(form);
        form.submit();
      })()`);
      await page.waitForURL(/\/v1\/runs/);
      assert.match((await page.content()) ?? "", /origin_not_allowed/);
      await page.close();
      const after = (await call(open.url, "GET", "/v1/runs")).json.runs.length;
      assert.equal(after, before, "not one run was made");
    });
  });
});

describe("the access token", () => {
  it("is needed to create, claim and delete; reads and leases need no more than before", async () => {
    const create = (headers: Record<string, string>) =>
      call(guarded.url, "POST", "/v1/runs", {
        query: { scenario: "bridge_repair" },
        body: { controlled_agents: ["engineer-1"] },
        headers,
      });
    const none = await create(json);
    assert.equal(none.status, 401);
    assert.equal(none.json.error, "token_required");
    const wrong = await create({ ...json, authorization: "Bearer t-wrong-token-0000000" });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.json.error, "token_invalid");
    const made = await create(bearer);
    assert.equal(made.status, 201);
    const agent = `/v1/runs/${made.json.run_id}/agents/engineer-1`;
    assert.equal((await call(guarded.url, "POST", `${agent}/claim`)).status, 401);
    const claim = await call(guarded.url, "POST", `${agent}/claim`, { headers: bearer });
    assert.equal(claim.status, 200);
    // The bearer header carries the token, so the lease goes in ?lease=; the token is never taken for it.
    const poll = await call(guarded.url, "GET", `${agent}/observations`, {
      query: { lease: claim.json.lease, wait: 5 },
      headers: bearer,
    });
    assert.equal(poll.status, 200);
    const resumed = await call(guarded.url, "POST", `${agent}/claim`, { headers: bearer });
    assert.equal(
      resumed.status,
      409,
      "the token is not the lease: claiming a held agent without it is refused",
    );
    assert.equal((await call(guarded.url, "GET", `/v1/runs/${made.json.run_id}`)).status, 200);
    const path = `/v1/runs/${made.json.run_id}`;
    assert.equal((await call(guarded.url, "DELETE", path, { headers: json })).status, 401);
    const deleted = await call(guarded.url, "DELETE", path, { headers: bearer });
    assert.equal(deleted.json.status, "deleted");
  });

  it("is sent by the TypeScript client when given", async () => {
    const refused = new WarrenClient(guarded.url);
    await assert.rejects(refused.createRun("signal_relay"), /401 token_required/);
    const client = new WarrenClient(guarded.url, { token: TOKEN });
    const run = await client.createRun("bridge_repair", { controlled_agents: ["engineer-1"] });
    const session = client.agent(run.run_id, "engineer-1");
    await session.claim();
    const envelope = await session.observe(5);
    assert.equal(envelope?.agent_id, "engineer-1");
    const deleted = await client.deleteRun(run.run_id);
    assert.equal(deleted.status, "deleted");
  });

  it("lets the viewer in once opened with ?token=, through an HttpOnly cookie", {
    skip: browserMissing,
  }, async () => {
    const traded = await fetch(`${guarded.url}/?token=${TOKEN}`, { redirect: "manual" });
    assert.equal(traded.status, 303);
    assert.equal(traded.headers.get("location"), "/");
    assert.match(
      traded.headers.get("set-cookie") ?? "",
      /^warren_token=.+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    const wrongToken = await fetch(`${guarded.url}/?token=nope`, { redirect: "manual" });
    assert.equal(wrongToken.status, 403);
    const { page, errors } = await openPage(suite.browser, `${guarded.url}/?token=${TOKEN}`);
    assert.equal(new URL(page.url()).search, "", "the token leaves the address bar");
    await page.locator("#scenario option[value=signal_relay]").waitFor({ state: "attached" });
    await page.selectOption("#scenario", "signal_relay");
    await page.click("#start-run");
    await page.waitForURL(/\/runs\/run-\d+$/);
    const runId = page.url().split("/").at(-1)!;
    const view = await waitFor("the viewer's run to end", async () => {
      const shown = (await call(guarded.url, "GET", `/v1/runs/${runId}`)).json;
      return shown.status === "running" ? undefined : shown;
    });
    assert.equal(view.status, "completed");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
