import { readFileSync } from "node:fs";
import { decisionsFromEvents, Run } from "../../engine/index.js";
import { findScenario } from "../../scenarios/index.js";
import { TrajectoryError } from "../../trajectory/trajectory-error.js";
import { parseTrajectory } from "../../trajectory/trajectory-reader.js";
import { replayTrajectory, type TrajectoryReplay } from "../../trajectory/trajectory-replay.js";
import { type CliCommand, type CliIo, UsageError } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { type RunLogFile, runLogProblem } from "../run-log.js";
import { printResult } from "./run.js";

export const replayCommand: CliCommand = {
  name: "replay",
  usage: "warren replay FILE [--json] | warren replay --trajectory FILE [--json]",
  summary:
    "Re-run a log written by `warren run --log` from its recorded decisions and check the hash; with --trajectory, a trajectory file's commands, checking every decision and the end, and saying where the replay diverges.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      json: { type: "boolean" },
      trajectory: { type: "string" },
    });
    const json = values.json === true;
    if (typeof values.trajectory === "string") {
      if (positionals.length > 0) throw new UsageError("name the trajectory file after --trajectory alone");
      return replayTrajectoryFile(values.trajectory, io, json);
    }
    if (positionals.length !== 1) throw new UsageError("name exactly one log file");
    return replayLog(positionals[0]!, io, json);
  },
};

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

async function replayLog(path: string, io: CliIo, json: boolean): Promise<number> {
  const text = readText(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (text.startsWith('{"type":"header"')) {
      throw new UsageError(`${path} is a trajectory: replay it with --trajectory ${path}`);
    }
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const problem = runLogProblem(parsed);
  if (problem) throw new UsageError(`${path} is not a warren run log: ${problem}`);
  const log = parsed as RunLogFile;
  const scenario = findScenario(log.scenario);
  if (!scenario) throw new UsageError(`${path} names an unknown scenario "${log.scenario}"`);
  const run = new Run({
    runId: `${log.scenario}-${log.seed}`,
    scenario,
    seed: log.seed,
    pace: null,
    affordances: log.affordances ?? "ready",
    replay: decisionsFromEvents(log.events),
  });
  const started = performance.now();
  run.start();
  const summary = await run.whenEnded();
  const wallMs = Math.round(performance.now() - started);
  const matches = summary.log_hash === log.log_hash && summary.status === log.status;
  printResult(io, summary, wallMs, json);
  if (matches) {
    io.err(`replay matches the log: ${log.log_hash}`);
    return 0;
  }
  io.err(
    `replay differs from the log: recorded ${log.status} ${log.log_hash}, replayed ${summary.status} ${summary.log_hash}${summary.status === "crashed" ? ` (${summary.status_reason})` : ""}`,
  );
  return 1;
}

async function replayTrajectoryFile(path: string, io: CliIo, json: boolean): Promise<number> {
  const text = readText(path);
  let started = 0;
  let replay: TrajectoryReplay;
  try {
    const trajectory = parseTrajectory(text);
    started = performance.now();
    replay = await replayTrajectory(trajectory);
  } catch (error) {
    if (error instanceof TrajectoryError)
      throw new UsageError(`${path} is not a warren trajectory: ${error.message}`);
    throw error;
  }
  printResult(io, replay.summary, Math.round(performance.now() - started), json);
  const { divergence } = replay;
  if (!divergence) {
    io.err(`replay matches the trajectory: ${replay.summary.log_hash}`);
    return 0;
  }
  io.err(
    `replay diverges from the trajectory at line ${divergence.line}, ${divergence.where}: ${divergence.differences.join("; ")}`,
  );
  return 1;
}
