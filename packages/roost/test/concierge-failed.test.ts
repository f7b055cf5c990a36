import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { speakFor } from "./helpers/a2a.js";
import { type RawConnection, runCli, TEST_PROFILES } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG, type HubHarness, startHubHarness } from "./helpers/hub-harness.js";

// pi's folder, empty: no default model. The daemon, started below, inherits it.
const piDir = mkdtempSync(join(tmpdir(), "roost-concierge-pi-"));
process.env.PI_CODING_AGENT_DIR = piDir;

let h: HubHarness;
const conns: RawConnection[] = [];
const roost = (...args: string[]) => runCli(h.daemon.home, args);
const agentProfiles = { ...HUB_TEST_CONFIG.agentProfiles, mute: TEST_PROFILES.mute };
const config = (extra: object) =>
  writeFileSync(join(h.daemon.home, "roost.json"), JSON.stringify({ agentProfiles, ...extra }));

before(async () => {
  h = await startHubHarness(120, 35, { config: { agentProfiles } });
});
after(async () => {
  for (const c of conns) c.close();
  await h?.close();
  rmSync(piDir, { recursive: true, force: true });
});

const NO_API = "No API provider registered for api: unknown";

test("without a model the concierge is not offered: the hub says what configures it, c and C o refuse, a model in roost.json offers it", async () => {
  await h.waitForScreen("the bar says it cannot run", (s) =>
    s.includes(
      '◇ concierge off · cannot run without a model: "concierge": {"model": "PROVIDER/ID"} in roost.json',
    ),
  );
  h.terminal.type("c");
  await h.waitForScreen("c says why", (s) => s.includes("The concierge cannot run: no model is configured"));
  h.terminal.type("C", "o");
  await h.waitForScreen("C o is refused with the line", (s) =>
    /Concierge on refused:[^\n]*the concierge cannot run/.test(s),
  );
  assert.equal((await h.raw.request("concierge", { action: "status" })).result.job, null, "no job was made");

  config({ concierge: { model: "fake/fake-model" } });
  const status = await h.raw.request("concierge", { action: "status" });
  assert.equal(status.result.unavailable, null);
  config({});
});

test("a concierge whose run failed is failed everywhere: the bar, c, roost concierge status and ask, ls; on starts it again", async () => {
  const on = await h.raw.request("concierge", { action: "on", launch: { profile: "mute" } });
  assert.equal(on.ok, true, JSON.stringify(on));
  const cid = on.result.job.id as string;
  await h.waitForScreen("the concierge's line", (s) => s.includes("◆ concierge · c asks it, C sets it"));
  // pi alive after a run that broke reports so: the job lives on, the concierge has failed.
  const conn = await speakFor(h.daemon, cid, { state: "failed", status: "idle", error: NO_API });
  conns.push(conn);

  await h.waitForScreen("the bar says failed", (s) =>
    s.includes(`✗ concierge failed: ${NO_API} · C o starts it again`),
  );
  const screen = await h.terminal.text();
  assert.doesNotMatch(screen, /c asks it/);
  h.terminal.type("c");
  await h.waitForScreen("c says it failed", (s) => s.includes(`The concierge failed: ${NO_API}`));
  assert.notEqual(h.hub.state.mode.kind, "concierge-ask", "no ask line opens");

  const status = await h.raw.request("concierge", { action: "status" });
  assert.equal(status.result.running, false);
  assert.equal(status.result.failed, NO_API);
  const cli = await roost("concierge", "status");
  assert.match(
    cli.stdout,
    new RegExp(`^concierge failed \\(concierge ${cid}, running\\);.*; why: ${NO_API}; `),
  );
  const asked = await roost("concierge", "ask", "anything?");
  assert.equal(asked.code, 1);
  assert.match(asked.stderr, /unsupported: the concierge failed: No API provider .*`roost concierge on`/);
  const ls = await roost("ls");
  assert.match(ls.stdout.split("\n").find((l) => l.includes("concierge")) ?? "", /failed/);

  // `on` starts it again: a new connection reports a sound run.
  conn.close();
  const again = await h.raw.request("concierge", { action: "on" });
  assert.equal(again.ok, true, JSON.stringify(again));
  assert.equal(again.result.job.id, cid);
  const back = await speakFor(h.daemon, cid, { state: "working", status: "idle" });
  conns.push(back);
  await h.waitForScreen("the concierge runs again", (s) => s.includes("◆ concierge · c asks it, C sets it"));
  assert.equal((await h.raw.request("concierge", { action: "status" })).result.failed, null);
});
