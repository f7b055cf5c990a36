// warren run --log and warren replay, apart from the other commands' tests so each file stays short.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runWarren } from "./helpers/warren-process.js";

const dir = mkdtempSync(join(tmpdir(), "warren-cli-replay-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const warren = (...args: string[]) => runWarren(args);

test("warren run --log writes the log; warren replay re-runs it and checks the hash", async () => {
  const log = join(dir, "run.json");
  const ran = await warren("run", "harvest_rush", "--seed", "6", "--log", log, "--json");
  assert.equal(ran.code, 0, ran.stderr);
  const hash = JSON.parse(ran.stdout).log_hash;
  const file = JSON.parse(readFileSync(log, "utf8"));
  assert.equal(file.format, "warren-log/1");
  assert.equal(file.log_hash, hash);
  assert.ok(file.events.some((e: { kind: string }) => e.kind === "decision"));

  // A tampered decision makes the replay diverge.
  const tampered = join(dir, "tampered.json");
  const decision = file.events.find(
    (e: { kind: string; data: { action?: string } }) => e.kind === "decision" && e.data.action === "move_to",
  );
  decision.data.args = { dest: "market" === decision.data.args.dest ? "north_field" : "market" };
  writeFileSync(tampered, JSON.stringify(file));
  const notLog = join(dir, "not-a-log.json");
  writeFileSync(notLog, JSON.stringify({ hello: 1 }));
  const [replay, bad, wrong] = await Promise.all([
    warren("replay", log),
    warren("replay", tampered),
    warren("replay", notLog),
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.match(replay.stderr, new RegExp(`replay matches the log: ${hash}`));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /replay differs from the log/);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /is not a warren run log: format must be "warren-log\/1"/);
});

test("warren replay refuses a log whose affordances mode is neither ready nor all, naming it", async () => {
  const log = join(dir, "bad-mode.json");
  const ran = await warren("run", "signal_relay", "--seed", "2", "--log", log);
  assert.equal(ran.code, 0, ran.stderr);
  const file = JSON.parse(readFileSync(log, "utf8"));
  writeFileSync(log, JSON.stringify({ ...file, affordances: "some" }));
  const replayed = await warren("replay", log);
  assert.equal(replayed.code, 2);
  assert.match(
    replayed.stderr,
    /is not a warren run log: affordances must be "ready" or "all" \(got "some"\)/,
  );
});

test("the command list's serve entry says what serve.ts says", async () => {
  const { COMMANDS } = await import("../src/cli/command-list.js");
  const { serveCommand } = await import("../src/cli/serve.js");
  const listed = COMMANDS.find((c) => c.name === "serve")!;
  assert.equal(listed.usage, serveCommand.usage);
  assert.equal(listed.summary, serveCommand.summary);
});

test("a run with a baseline and every affordance offered replays to the same hash", async () => {
  const log = join(dir, "baseline.json");
  const ran = await warren(
    "run",
    "fog_search",
    "--seed",
    "2",
    "--policy",
    "shepherd-1=random",
    "--affordances",
    "all",
    "--log",
    log,
  );
  assert.equal(ran.code, 1, "a random shepherd loses the flock");
  const file = JSON.parse(readFileSync(log, "utf8"));
  assert.deepEqual(file.npc_policy, { "shepherd-1": "random" });
  assert.equal(file.affordances, "all");
  const replay = await warren("replay", log);
  assert.match(replay.stderr, new RegExp(`replay matches the log: ${file.log_hash}`));
});
