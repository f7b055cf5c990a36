import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { type AgentMix, parseAgentMixes, SOLUTION_MIX } from "../../sweep/agent-mix.js";
import { parseQueueUrl } from "../../sweep/queue-url.js";
import { parseSeeds } from "../../sweep/seed-range.js";
import { runSweep } from "../../sweep/sweep.js";
import { RECORDS_FILE } from "../../sweep/sweep-dir.js";
import { MAX_TRIALS, planRuns, type RunSpec } from "../../sweep/sweep-plan.js";
import { summaryTable } from "../../sweep/sweep-summary.js";
import { type CliCommand, UsageError } from "../command.js";
import { defaultSweepDir } from "../data-dir.js";
import { parseCount } from "../parse-count.js";
import { parseOptions } from "../parse-options.js";

const DEFAULT_SEEDS = "1-20";

export const sweepCommand: CliCommand = {
  name: "sweep",
  usage:
    "warren sweep SCENARIO... [--seeds A-B] [--trials K] [--agents FILE] [--workers N] [--out DIR] [--trajectories DIR] [--json] [--queue redis://H:P]",
  summary:
    "Play every (scenario, agent mix, seed) as one run, or as K with --trials K (trials 0 to K-1, told to the agents: random baselines and remote clients vary by it), in parallel or on a Redis queue; records to DIR/runs.jsonl (default DIR: sweeps/SCENARIO+... in the state folder, beside the kept runs), a summary table (with --trials, pass@K and pass^K over the seeds beside the success rate; when remote clients report their usage, the mean score per 1,000 tokens and per unit of cost). --trajectories DIR writes each run played as a trajectory file there (SCENARIO.MIX.SEED.TRIAL.jsonl; not with --queue).",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      seeds: { type: "string" },
      trials: { type: "string" },
      agents: { type: "string" },
      workers: { type: "string" },
      out: { type: "string" },
      json: { type: "boolean" },
      queue: { type: "string" },
      trajectories: { type: "string" },
    });
    if (positionals.length === 0) throw new UsageError("name at least one scenario");
    const queueUrl = values.queue as string | undefined;
    const mixes = typeof values.agents === "string" ? readMixes(values.agents) : [SOLUTION_MIX];
    const trials = parseCount("--trials", values.trials as string | undefined, 1, 1, MAX_TRIALS);
    let plan: RunSpec[];
    try {
      if (queueUrl !== undefined) parseQueueUrl(queueUrl);
      const seeds = parseSeeds((values.seeds as string | undefined) ?? DEFAULT_SEEDS);
      plan = planRuns(positionals, seeds, mixes, trials);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    // With a queue the sweep only hands runs out unless asked to play some itself.
    const workers = parseCount(
      "--workers",
      values.workers as string | undefined,
      queueUrl === undefined ? availableParallelism() : 0,
      queueUrl === undefined ? 1 : 0,
    );
    const outDir = (values.out as string | undefined) ?? defaultSweepDir(positionals);
    io.err(`warren sweep: writing to ${outDir}`);
    const result = await runSweep({
      plan,
      outDir,
      workers,
      queueUrl,
      trajectoryDir: values.trajectories as string | undefined,
      progress: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
    });
    for (const { key, error } of result.errors) io.err(`${key}: ${error}`);
    if (values.json === true) {
      io.out(JSON.stringify({ ...result.summary, resumed: result.resumed, errors: result.errors }));
    } else {
      io.out(summaryTable(result.summary));
      io.out(`records: ${join(outDir, RECORDS_FILE)}`);
    }
    return result.errors.length === 0 ? 0 : 1;
  },
};

function readMixes(file: string): AgentMix[] {
  try {
    return parseAgentMixes(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    throw new UsageError(`--agents ${file}: ${(error as Error).message}`);
  }
}
