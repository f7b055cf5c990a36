// warren run --trajectory and warren replay --trajectory, through the real command.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runWarren } from "./helpers/warren-process.js";

const dir = mkdtempSync(join(tmpdir(), "warren-cli-trajectory-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const warren = (...args: string[]) => runWarren(args);

/** The published schema's required fields of a header (anyOf[0]) and a step (anyOf[1]). */
const schema = JSON.parse(readFileSync(new URL("../docs/trajectory.schema.json", import.meta.url), "utf8"));
const [headerFields, stepFields] = (schema.anyOf as { required: string[] }[]).map((s) => s.required);

const readLines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));

test("warren run --trajectory writes a header and a step per decision of its log; replay reaches its hash; a changed command is found", async () => {
  const trajectory = join(dir, "bridge.jsonl");
  const log = join(dir, "bridge-log.json");
  const [recorded, plain] = await Promise.all([
    warren("run", "bridge_repair", "--seed", "3", "--trajectory", trajectory, "--log", log, "--json"),
    warren("run", "bridge_repair", "--seed", "3", "--json"),
  ]);
  assert.equal(recorded.code, 0, recorded.stderr);
  const hash = JSON.parse(recorded.stdout).log_hash;
  assert.equal(hash, JSON.parse(plain.stdout).log_hash, "recording changes no hash");

  const [header, ...steps] = readLines(trajectory);
  assert.equal(header!.type, "header");
  for (const field of headerFields!) assert.ok(field in header!, `the header has ${field}`);
  assert.equal(header!.scenario, "bridge_repair");
  assert.equal(header!.seed, 3);
  assert.equal(header!.trial, 0);
  const result = header!.result as { log_hash: string; status: string; steps: number; sim_events: number };
  assert.deepEqual([result.log_hash, result.status], [hash, "completed"]);
  const events = (JSON.parse(readFileSync(log, "utf8")) as { events: { kind: string }[] }).events;
  const decisions = events.filter((e) => e.kind === "decision").length;
  assert.ok(decisions > 10);
  assert.equal(steps.length, decisions, "a step per decision event of the run's log");
  assert.equal(result.steps, decisions);
  assert.equal(result.sim_events, events.length, "the log file holds the simulation's events");
  for (const step of steps) {
    assert.equal(step.type, "step");
    for (const field of stepFields!) assert.ok(field in step, `a step has ${field}`);
    const observation = step.observation as { text: string; structured: { agent: string } };
    assert.equal(observation.structured.agent, step.agent);
    assert.match(observation.text, /^\[t=\d+(\.\d+)?s\] You are /);
  }
  assert.deepEqual(readdirSync(dir).sort(), ["bridge-log.json", "bridge.jsonl"], "no hidden file is left");

  // A move sent elsewhere: the replay parts from the file at that very line.
  const lines = readFileSync(trajectory, "utf8").split("\n");
  const changed = steps.findIndex((s) => (s.command as { action?: string }).action === "move_to") + 1;
  const step = JSON.parse(lines[changed]!);
  step.command.args.dest = step.command.args.dest === "depot" ? "barn" : "depot";
  lines[changed] = JSON.stringify(step);
  const tampered = join(dir, "tampered.jsonl");
  writeFileSync(tampered, lines.join("\n"));
  const notOne = join(dir, "not-one.jsonl");
  writeFileSync(notOne, `${JSON.stringify({ type: "step" })}\n`);

  const [replay, bad, wrong, asLog] = await Promise.all([
    warren("replay", "--trajectory", trajectory, "--json"),
    warren("replay", "--trajectory", tampered),
    warren("replay", "--trajectory", notOne),
    warren("replay", trajectory),
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(JSON.parse(replay.stdout).log_hash, hash, "the replay's final hash is the recorded one");
  assert.match(replay.stderr, new RegExp(`replay matches the trajectory: ${hash}`));
  assert.equal(bad.code, 1);
  assert.match(
    bad.stderr,
    new RegExp(
      `replay diverges from the trajectory at line ${changed + 1}, ${step.agent} step ${step.step} \\(${step.observation_id}\\)`,
    ),
  );
  assert.match(bad.stderr, /the log hash differs/);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /is not a warren trajectory: line 1 must be a header/);
  assert.equal(asLog.code, 2);
  assert.match(asLog.stderr, /is a trajectory: replay it with --trajectory /);
});

test("an unwritable trajectory is an error with its code before anything is played", async () => {
  const missing = join(dir, "no-such-folder", "t.jsonl");
  const [inMissing, onFolder] = await Promise.all([
    warren("run", "bridge_repair", "--trajectory", missing),
    warren("run", "bridge_repair", "--trajectory", dir),
  ]);
  for (const refused of [inMissing, onFolder]) {
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^warren run: trajectory_unwritable: cannot write the trajectory /);
    assert.doesNotMatch(refused.stderr, /\[t=/, "no objective moved: nothing was played");
    assert.equal(refused.stdout, "");
  }
  assert.match(inMissing.stderr, /ENOENT: no such file or directory\n$/);
  assert.match(onFolder.stderr, /it is a folder\n$/);
  assert.equal(existsSync(missing), false);
});
