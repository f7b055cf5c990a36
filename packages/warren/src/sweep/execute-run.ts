import type { Run, RunSummary } from "../engine/index.js";
import { createRun, findScenario } from "../scenarios/index.js";
import type { ListeningServer } from "../server/index.js";
import { recordTrajectory, type TrajectoryRecording } from "../trajectory/record-trajectory.js";
import { castMix, type MixCast } from "./agent-mix.js";
import { RemoteClient } from "./remote-client.js";
import { type RunRecord, recordOf } from "./run-record.js";
import type { RunSpec } from "./sweep-plan.js";

const DEFAULT_DEADLINE_S = 60;

/**
 * Plays one run of a sweep to its end and returns its record. Runs without remote agents play in
 * this process; the others are hosted on this process's own warren-agent/0 server (started on a
 * free port the first time one is needed) while the mix's client plays them.
 */
export async function executeRun(spec: RunSpec): Promise<RunRecord> {
  const scenario = findScenario(spec.scenario);
  if (!scenario) throw new Error(`there is no scenario "${spec.scenario}"`);
  const cast = castMix(
    spec.mix,
    spec.scenario,
    scenario.agents.map((a) => a.id),
  );
  const started = performance.now();
  if (cast.remote.length === 0) {
    const run = createRun({
      runId: spec.key,
      scenario: spec.scenario,
      seed: spec.seed,
      trial: spec.trial,
      npcPolicy: cast.npcPolicy,
      pace: spec.mix.pace ?? null,
    });
    const trajectory = traceOf(run, spec);
    run.start();
    const summary = await run.whenEnded();
    trajectory?.publish(summary);
    return recordOf(spec, summary, run.events(0), performance.now() - started);
  }
  return playWithClient(spec, cast, started);
}

/** The run's trajectory recording, when the sweep asks for one: from before the run starts. */
function traceOf(run: Run, spec: RunSpec): TrajectoryRecording | undefined {
  if (spec.trajectoryFile === undefined) return undefined;
  return recordTrajectory(run, spec.trajectoryFile, { key: spec.key, mix: spec.mix.name });
}

let server: Promise<ListeningServer> | undefined;

/** This process's server for remote mixes; loaded only when one runs. */
function hostServer(): Promise<ListeningServer> {
  server ??= import("../server/index.js").then(({ startServer }) =>
    startServer({ host: "127.0.0.1", port: 0 }, { keepEndedRuns: 10 }),
  );
  return server;
}

async function playWithClient(spec: RunSpec, cast: MixCast, started: number): Promise<RunRecord> {
  const { url, registry } = await hostServer();
  const deadlineS = spec.mix.deadline_s ?? DEFAULT_DEADLINE_S;
  const hosted = registry.create(spec.scenario, spec.seed, {
    controlled_agents: cast.remote,
    npc_policy: cast.npcPolicy,
    trial: spec.trial,
    pace: spec.mix.pace ?? null,
    deadline_s: deadlineS,
  });
  const run = hosted.run;
  let trajectory: TrajectoryRecording | undefined;
  try {
    trajectory = traceOf(run, spec);
  } catch (error) {
    run.dispose("its trajectory cannot be written");
    throw error;
  }
  const client = new RemoteClient(spec.mix.command!, {
    url,
    runId: run.id,
    agents: cast.remote,
    scenario: spec.scenario,
    seed: spec.seed,
    trial: spec.trial,
  });
  // A client that dies or never claims its agents would leave the run waiting: it ends as crashed.
  const unclaimed = setTimeout(() => {
    if (run.status === "created") {
      run.dispose(`the remote client did not claim ${cast.remote.join(", ")} within ${deadlineS} s`);
    }
  }, deadlineS * 1000);
  void client.exited.then((exit) => {
    run.dispose(`the remote client exited (${exit.signal ?? `code ${exit.exit_code}`}) before the run ended`);
  });
  const summary: RunSummary = await run.whenEnded();
  clearTimeout(unclaimed);
  const exit = await client.finish();
  trajectory?.publish(summary);
  return { ...recordOf(spec, summary, run.events(0), performance.now() - started), client: exit };
}
