import { readFileSync } from "node:fs";
import { decisionsFromEvents, Run } from "../../engine/index.js";
import { findScenario } from "../../scenarios/index.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseOptions } from "../parse-options.js";
import { type RunLogFile, runLogProblem } from "../run-log.js";
import { printResult } from "./run.js";

export const replayCommand: CliCommand = {
  name: "replay",
  usage: "warren replay FILE [--json]",
  summary: "Re-run a log written by `warren run --log` from its recorded decisions and check the hash.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, { json: { type: "boolean" } });
    if (positionals.length !== 1) throw new UsageError("name exactly one log file");
    const path = positionals[0]!;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
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
    printResult(io, summary, wallMs, values.json === true);
    if (matches) {
      io.err(`replay matches the log: ${log.log_hash}`);
      return 0;
    }
    io.err(
      `replay differs from the log: recorded ${log.status} ${log.log_hash}, replayed ${summary.status} ${summary.log_hash}${summary.status === "crashed" ? ` (${summary.status_reason})` : ""}`,
    );
    return 1;
  },
};
