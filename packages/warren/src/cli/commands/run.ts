import { writeFileSync } from "node:fs";
import { createRun, type ObjectiveView, type RunSummary } from "../../engine/index.js";
import { replayFile } from "../../web/pages.js";
import { type RunRecord, recordRun } from "../../web/run-record.js";
import { buildScene } from "../../web/scene.js";
import { type CliCommand, type CliIo, UsageError } from "../command.js";
import { parseOptions, parseSeed } from "../parse-options.js";
import { RUN_LOG_FORMAT, type RunLogFile } from "../run-log.js";

export const runCommand: CliCommand = {
  name: "run",
  usage: "warren run SCENARIO [--seed N] [--json] [--log FILE] [--html FILE]",
  summary:
    "Run a scenario headless, every agent on its solution runner; print objectives, times and the log hash.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      seed: { type: "string" },
      json: { type: "boolean" },
      log: { type: "string" },
      html: { type: "string" },
    });
    if (positionals.length !== 1) throw new UsageError("name exactly one scenario");
    const scenario = positionals[0]!;
    const seed = parseSeed(values.seed as string | undefined, 1);
    const run = createRun({
      runId: `${scenario}-${seed}`,
      scenario,
      seed,
      npcPolicy: "solution",
      pace: null,
    });
    run.onEvent((event) => {
      if (event.kind === "objective") {
        const d = event.data;
        io.err(
          `[t=${event.sim_time_ms / 1000}s] ${String(d.id)} ${String(d.current)}/${String(d.target)} ${String(d.status)}`,
        );
      }
    });
    const record: RunRecord | undefined = typeof values.html === "string" ? recordRun(run) : undefined;
    const started = performance.now();
    run.start();
    const summary = await run.whenEnded();
    const wallMs = Math.round(performance.now() - started);
    if (typeof values.log === "string") {
      const file: RunLogFile = {
        format: RUN_LOG_FORMAT,
        scenario,
        seed,
        controlled_agents: [],
        npc_policy: "solution",
        status: summary.status,
        status_reason: summary.status_reason,
        sim_time_ms: summary.sim_time_ms,
        log_hash: summary.log_hash,
        events: run.events(0).filter((e) => e.sim),
      };
      writeFileSync(values.log, `${JSON.stringify(file)}\n`);
    }
    if (typeof values.html === "string" && record) {
      const scene = buildScene(run.id, run.scenario, seed, run.agents());
      writeFileSync(values.html, replayFile(scene, run.events(0), record));
    }
    printResult(io, summary, wallMs, values.json === true);
    return summary.status === "completed" ? 0 : 1;
  },
};

export function printResult(io: CliIo, summary: RunSummary, wallMs: number, json: boolean): void {
  if (json) {
    io.out(
      JSON.stringify({
        scenario: summary.scenario,
        seed: summary.seed,
        status: summary.status,
        status_reason: summary.status_reason,
        objectives: summary.objectives,
        sim_time_ms: summary.sim_time_ms,
        wall_time_ms: wallMs,
        log_hash: summary.log_hash,
      }),
    );
    return;
  }
  io.out(`${summary.scenario} seed ${summary.seed}: ${summary.status} (${summary.status_reason})`);
  for (const o of summary.objectives) io.out(`  ${objectiveLine(o)}`);
  io.out(`sim time ${summary.sim_time_ms / 1000} s, wall time ${wallMs} ms`);
  io.out(`log hash ${summary.log_hash}`);
}

function objectiveLine(o: ObjectiveView): string {
  const due = o.deadline_ms === null ? "" : `, due t=${o.deadline_ms / 1000}s`;
  return `${o.id} ${o.progress.current}/${o.progress.target} ${o.status}${due}`;
}
