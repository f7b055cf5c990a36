import { writeFileSync } from "node:fs";
import {
  type AffordanceMode,
  NPC_POLICIES,
  type NpcPolicy,
  type ObjectiveView,
  RunError,
  type RunSummary,
} from "../../engine/index.js";
import type { RunResult } from "../../protocol/index.js";
import { createRun } from "../../scenarios/index.js";
import { recordTrajectory } from "../../trajectory/record-trajectory.js";
import { replayFile } from "../../web/pages.js";
import { recordRun } from "../../web/run-record.js";
import { buildScene } from "../../web/scene.js";
import type { RunRecord } from "../../web/viewer-documents.js";
import { type CliCommand, type CliIo, UsageError } from "../command.js";
import { parseCount } from "../parse-count.js";
import { parseOptions, parseSeed } from "../parse-options.js";
import { RUN_LOG_FORMAT, type RunLogFile } from "../run-log.js";

export const runCommand: CliCommand = {
  name: "run",
  usage:
    "warren run SCENARIO [--seed N] [--json] [--log FILE] [--html FILE] [--trajectory FILE] [--policy AGENT=POLICY]... [--affordances ready|all] [--trial T]",
  summary:
    "Run a scenario headless, every agent on its solution runner unless --policy says otherwise (noop, random, greedy); print objectives, scores, times and the log hash. --trajectory FILE writes each decision with what its agent saw, as JSON lines for a trainer (docs/trajectories.md).",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      seed: { type: "string" },
      trial: { type: "string" },
      policy: { type: "string", multiple: true },
      affordances: { type: "string" },
      json: { type: "boolean" },
      log: { type: "string" },
      html: { type: "string" },
      trajectory: { type: "string" },
    });
    if (positionals.length !== 1) throw new UsageError("name exactly one scenario");
    const scenario = positionals[0]!;
    const seed = parseSeed(values.seed as string | undefined, 1);
    // A sweep's trial T of this seed, played alike: the random baseline draws as it did there.
    const trial = parseCount("--trial", values.trial as string | undefined, 0, 0, 0xffffffff);
    const npcPolicy = parsePolicies((values.policy as string[] | undefined) ?? []);
    const affordances = (values.affordances as string | undefined) ?? "ready";
    if (affordances !== "ready" && affordances !== "all") {
      throw new UsageError(`--affordances must be "ready" or "all" (got "${affordances}")`);
    }
    let run: ReturnType<typeof createRun>;
    try {
      run = createRun({
        runId: `${scenario}-${seed}`,
        scenario,
        seed,
        trial,
        npcPolicy,
        affordances,
        pace: null,
        // A log file and a replay file hold every event, however long the run.
        retainEvents:
          typeof values.log === "string" || typeof values.html === "string"
            ? Number.POSITIVE_INFINITY
            : undefined,
      });
    } catch (error) {
      if (error instanceof RunError && error.code !== "unknown_scenario") throw new UsageError(error.message);
      throw error;
    }
    run.onEvent((event) => {
      if (event.kind === "objective") {
        const d = event.data;
        io.err(
          `[t=${event.sim_time_ms / 1000}s] ${String(d.id)} ${String(d.current)}/${String(d.target)} ${String(d.status)}`,
        );
      }
    });
    const record: RunRecord | undefined = typeof values.html === "string" ? recordRun(run) : undefined;
    // Before the run starts: a file that cannot be written is said before anything is played.
    const trajectory =
      typeof values.trajectory === "string" ? recordTrajectory(run, values.trajectory) : undefined;
    const started = performance.now();
    run.start();
    const summary = await run.whenEnded();
    const wallMs = Math.round(performance.now() - started);
    trajectory?.publish(summary);
    if (typeof values.log === "string") {
      const file: RunLogFile = {
        format: RUN_LOG_FORMAT,
        scenario,
        seed,
        ...(trial === 0 ? {} : { trial }),
        controlled_agents: [],
        npc_policy: npcPolicy,
        affordances: affordances as AffordanceMode,
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

/** `--policy courier-1=random` flags as npc_policy: listed agents get theirs, the rest "solution". */
export function parsePolicies(flags: readonly string[]): Record<string, NpcPolicy> {
  const policies: Record<string, NpcPolicy> = {};
  for (const flag of flags) {
    const [agent, policy] = flag.split("=");
    if (!agent || !NPC_POLICIES.includes(policy as NpcPolicy)) {
      throw new UsageError(
        `--policy takes AGENT=POLICY, POLICY one of ${NPC_POLICIES.join(", ")} (got "${flag}")`,
      );
    }
    policies[agent] = policy as NpcPolicy;
  }
  return policies;
}

export function printResult(io: CliIo, summary: RunSummary, wallMs: number, json: boolean): void {
  if (json) {
    const result: RunResult = {
      scenario: summary.scenario,
      seed: summary.seed,
      status: summary.status,
      status_reason: summary.status_reason,
      objectives: summary.objectives,
      sim_time_ms: summary.sim_time_ms,
      wall_time_ms: wallMs,
      log_hash: summary.log_hash,
      scores: summary.scores,
    };
    io.out(JSON.stringify(result));
    return;
  }
  io.out(`${summary.scenario} seed ${summary.seed}: ${summary.status} (${summary.status_reason})`);
  for (const o of summary.objectives) io.out(`  ${objectiveLine(o)}`);
  const s = summary.scores;
  io.out(`sim time ${summary.sim_time_ms / 1000} s, wall time ${wallMs} ms`);
  const yardstick = s.solution_sim_time_ms === null ? "none" : `${s.solution_sim_time_ms / 1000} s`;
  io.out(`time ratio ${s.time_ratio ?? "none (not completed)"} (the solution team's time: ${yardstick})`);
  for (const a of s.agents) {
    io.out(
      `  ${a.agent_id} (${a.controller}): contribution ${a.contribution}, ${a.credits} credits, ${a.commands} commands, ${a.actions} actions, ${a.refusals} refusals, ${a.messages} messages`,
    );
  }
  io.out(`log hash ${summary.log_hash}`);
}

function objectiveLine(o: ObjectiveView): string {
  const due = o.deadline_ms === null ? "" : `, due t=${o.deadline_ms / 1000}s`;
  return `${o.id} ${o.progress.current}/${o.progress.target} ${o.status}${due}`;
}
