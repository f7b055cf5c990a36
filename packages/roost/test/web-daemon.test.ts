/**
 * `"web": {"enabled": true}` in roost.json: the daemon keeps `roost web` running beside it. A real
 * daemon serves the page on the section's port (401 without the token, 200 with the cookie the
 * printed address gives), starts it again once its process is killed, and ends it with itself,
 * even when the daemon is killed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isProcessAlive } from "../src/home/process.js";
import { WEB_COOKIE } from "../src/protocol/web.js";
import { runCli, startTestDaemon, waitFor } from "./helpers/daemon.js";
import { freePort } from "./helpers/free-port.js";
import { processesMentioning } from "./helpers/leftovers.js";

/** The `roost web` processes of this home. */
const webProcesses = (home: string) =>
  processesMentioning(home).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("web");
    } catch {
      return false;
    }
  });

/** The status of a GET of the page, or 0 while nothing answers on the port. */
const status = (url: string, cookie?: string) =>
  fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} }).then(
    (response) => response.status,
    () => 0,
  );

test("the daemon keeps roost web running with roost.json's web section, and ends it with itself", async () => {
  const port = await freePort();
  const daemon = await startTestDaemon({ config: { web: { enabled: true, port } } });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      "the page on the section's port",
      async () => (await status(`${base}/`)) === 401 || undefined,
      60_000,
    );
    const printed = await daemon.cli(["web", "--url"]);
    assert.equal(printed.code, 0, printed.stderr);
    const url = printed.stdout.trim();
    assert.match(url, new RegExp(`^${base}/\\?token=[0-9a-f]{64}$`));
    const traded = await fetch(url, { redirect: "manual" });
    assert.equal(traded.status, 303);
    const cookie = `${WEB_COOKIE}=${new URL(url).searchParams.get("token")}`;
    assert.equal(await status(`${base}/`, cookie), 200);
    const log = () => readFileSync(join(daemon.stateDir, "daemon.log"), "utf8");
    assert.match(log(), /roost web serves the fleet on 127\.0\.0\.1:\d+ \(roost web --url/);

    // Killed, it comes back on the same port, the same token still good.
    const [first] = webProcesses(daemon.home);
    assert.ok(first, "a roost web process");
    process.kill(first, "SIGKILL");
    await waitFor(
      "roost web started again",
      async () => {
        const now = webProcesses(daemon.home);
        return now.length === 1 && now[0] !== first && (await status(`${base}/`, cookie)) === 200
          ? true
          : undefined;
      },
      60_000,
    );
    assert.match(log(), /roost web ended \(SIGKILL\); starting it again in \d+ ms/);
    assert.ok(!log().includes(new URL(url).searchParams.get("token")!), "the token is in no log");

    // A daemon killed outright takes its roost web with it: the port is free for the next daemon's.
    const [second] = webProcesses(daemon.home);
    await daemon.kill("SIGKILL");
    await waitFor("roost web to end with its daemon", () => !isProcessAlive(second!) || undefined, 30_000);
    await daemon.start();
    await waitFor(
      "the next daemon's roost web",
      async () => (await status(`${base}/`, cookie)) === 200 || undefined,
      60_000,
    );
  } finally {
    await daemon.stop();
  }
  // Shut down, the daemon ended it.
  assert.deepEqual(webProcesses(daemon.home), []);
  assert.equal(await status(`${base}/`), 0);
});

test("roost web --url --port 0 says it cannot know the port, and prints no address", async () => {
  const home = mkdtempSync(join(tmpdir(), "roost-web-url-"));
  try {
    const zero = await runCli(home, ["web", "--url", "--port", "0"]);
    assert.notEqual(zero.code, 0);
    assert.equal(zero.stdout, "");
    assert.match(
      zero.stderr,
      /bad_request: --url cannot know the address of a server on --port 0 \(any free port, picked as it starts\): roost web --port 0 prints the address it got/,
    );
    // A port of its own: the address, as before.
    const fixed = await runCli(home, ["web", "--url", "--port", "7421"]);
    assert.match(fixed.stdout, /^http:\/\/127\.0\.0\.1:7421\/\?token=[0-9a-f]{64}\n$/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
