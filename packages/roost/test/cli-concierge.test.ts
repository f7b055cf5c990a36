import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cliHome } from "./helpers/cli.js";
import { connectRaw } from "./helpers/daemon.js";

const cli = cliHome("roost-cli-concierge-");
const { roost, json } = cli;
// pi's folder, empty: no default model, so the default concierge (pi) cannot run. The daemon the
// first command starts inherits it.
const piDir = mkdtempSync(join(tmpdir(), "roost-cli-concierge-pi-"));
process.env.PI_CODING_AGENT_DIR = piDir;
after(() => rmSync(piDir, { recursive: true, force: true }));

test("roost concierge: status, policy, ask, undo, orders and off/on, human and --json", async () => {
  const off = await roost("concierge", "status");
  assert.equal(off.code, 0, off.stderr);
  assert.equal(
    off.stdout,
    `concierge off (no job); answers: never; acts: off; answered 0; orders 0; cannot run: no model is configured for the concierge: put "concierge": {"model": "PROVIDER/ID"} in roost.json (a model pi has, with its key), or set pi's default model (defaultProvider and defaultModel in ${join(piDir, "settings.json")})\n`,
  );
  // Without a model the default concierge is refused with the line that configures one, and no job is made.
  const refused = await roost("concierge", "on");
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /^roost concierge: unsupported: the concierge cannot run: no model is configured for the concierge: put "concierge": \{"model": "PROVIDER\/ID"\} in roost.json/,
  );
  assert.equal((await json("concierge", "status")).job, null);
  assert.equal((await cli.rows()).length, 0);
  // pi's own default model is a model configured.
  writeFileSync(join(piDir, "settings.json"), JSON.stringify({ defaultProvider: "p", defaultModel: "m" }));
  assert.equal((await json("concierge", "status")).unavailable, null);
  rmSync(join(piDir, "settings.json"));
  // A scripted agent in its place (the default would be pi).
  const hub = await connectRaw(join(cli.home, "roost", "daemon.sock"));
  const on = await hub.request("concierge", { action: "on", launch: { profile: "mute" } });
  hub.close();
  const id = on.result.job.id;

  assert.match((await roost("concierge", "status")).stdout, new RegExp(`^concierge on \\(concierge ${id}, `));
  assert.equal((await json("concierge", "answer", "routine")).policy.answer, "routine");
  assert.equal((await json("concierge", "act", "on")).policy.act, true);
  const bad = await roost("concierge", "answer", "sometimes");
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^roost concierge: bad_request: answer takes one of never, routine, always/);
  assert.deepEqual(await json("concierge", "ask", "anything for me?"), { seq: 1, saved: true });
  const undo = await roost("concierge", "undo", "--json");
  assert.equal(undo.code, 1);
  assert.equal(JSON.parse(undo.stdout).code, "not_found");

  const kept = await roost("concierge", "orders", "add", "every 30m", "check the build");
  assert.equal(kept.code, 0, kept.stderr);
  assert.match(
    kept.stdout,
    /^kept #1 {2}\[every 30m, next .+\] {2}by user, applied 0x {2}check the build\n$/,
  );
  assert.equal((await json("concierge", "orders", "add", "-", "be brief")).order.when, null);
  assert.equal((await roost("concierge", "orders", "add", "every 30", "x")).code, 1);
  const listed = await json("concierge", "orders");
  assert.deepEqual(
    listed.orders.map((o: { id: number }) => o.id),
    [1, 2],
  );
  assert.match((await roost("concierge", "orders", "rm", "#2")).stdout, /^dropped #2 /);
  assert.equal((await json("concierge", "status")).orders, 1);

  assert.match((await roost("concierge", "off")).stdout, /^concierge (on|off) /);
  const again = await json("concierge", "on");
  assert.equal(again.job.id, id, "the job it had");
  assert.equal((await roost("concierge", "dance")).code, 1);
});
