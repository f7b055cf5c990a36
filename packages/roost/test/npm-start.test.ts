// `npm start` as the root README gives it, in a real terminal under tmux: the demo fleet's rows show
// (one of them waiting for the person), `q` leaves it running, and `npm start -- --stop` ends every
// process of it. The demo runs on a home and a warren port of its own, beside anyone's own demo.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { waitFor } from "./helpers/daemon.js";
import { freePort } from "./helpers/free-port.js";
import { killAll, processesMentioning } from "./helpers/leftovers.js";
import { hasTmux, paneReader, tmuxServer } from "./helpers/tmux.js";

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const skip = hasTmux() ? false : "tmux is not installed: npm start opens the hub in a real terminal";
/**
 * How long the fleet may take to show: npm, then node and tsx for the demo, the daemon, its host and
 * each agent, one after another; on a loaded machine that is well past half a minute.
 */
const FLEET_SHOWN_MS = 90_000;

describe("npm start", { skip }, () => {
  const home = mkdtempSync(join(tmpdir(), "roost-demo-"));
  const tmux = tmuxServer("roost-npm-start");
  const { waitForPane } = paneReader(tmux, "demo");
  let env: NodeJS.ProcessEnv;

  after(async () => {
    await tmux("kill-server").catch(() => {});
    // Whatever a failed run left: ended, so that nothing outlives the test. After a run that ended
    // it all, a --stop would only start a daemon to stop it.
    if (processesMentioning(home).length > 0)
      await run("npm", ["start", "--", "--stop"], { cwd: REPOSITORY, env }).catch(() => {});
    killAll(processesMentioning(home));
    rmSync(home, { recursive: true, force: true });
  });

  test("opens the hub on the demo fleet, one row waiting; --stop ends the daemon, the host and every job", async () => {
    env = { ...process.env, ROOST_DEMO_HOME: home, ROOST_DEMO_WARREN_PORT: String(await freePort()) };
    delete env.ROOST_HOME;
    const vars = `ROOST_DEMO_HOME='${home}' ROOST_DEMO_WARREN_PORT='${env.ROOST_DEMO_WARREN_PORT}'`;
    const command = `env -u ROOST_HOME ${vars} npm start; echo "npm start exited $?"; sleep 600`;
    await tmux("new-session", "-d", "-s", "demo", "-x", "120", "-y", "35", "-c", REPOSITORY, command);

    const screen = await waitForPane(
      "every row of the fleet and one waiting",
      (s) =>
        ["count-ts", "count-py", "planner", "deploy", "warren-serve", "bridge-engineer"].every((name) =>
          new RegExp(`\\b${name}\\b`).test(s),
        ) && /\d+ waiting/.test(s),
      FLEET_SHOWN_MS,
    );
    assert.doesNotMatch(screen, /Error|at .*\.ts:\d+/, "no crash on the way");
    await tmux("send-keys", "-t", "demo", "q");
    const left = await waitForPane("the hub's goodbye", (s) => s.includes("npm start exited"));
    assert.match(left, /The demo fleet keeps running in the background/);
    assert.match(left, /npm start exited 0/);
    // The pane's shell names the home too: gone, what is left is the demo's own.
    await tmux("kill-server");
    assert.ok(processesMentioning(home).length > 0, "the fleet runs on after q");

    const stop = await run("npm", ["start", "--", "--stop"], { cwd: REPOSITORY, env });
    assert.match(stop.stdout, /The demo's daemon and its jobs are stopped\./);
    await waitFor("no process of the demo left", async () =>
      processesMentioning(home).length === 0 ? true : undefined,
    ).catch(() => assert.deepEqual(processesMentioning(home), [], "the demo's daemon, host and jobs"));
  });

  test("an error at start is said with what to do, not as a stack", async () => {
    const notAFolder = join(home, "a-file");
    writeFileSync(notAFolder, "");
    const failed = await run("npm", ["start"], {
      cwd: REPOSITORY,
      env: { ...process.env, ROOST_DEMO_HOME: notAFolder },
    }).then(
      () => assert.fail("npm start succeeded on a home that is a file"),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /npm start: the demo could not start: EEXIST/);
    assert.match(failed.stderr, /What to do: run `npm install`/);
    assert.doesNotMatch(failed.stderr, /^\s+at /m);
  });
});
