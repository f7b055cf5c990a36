import { BRIEFING_REVISION, type Envelope, type Run, type RunSummary } from "../engine/index.js";
import type { TrajectoryHeader, TrajectoryStep } from "../protocol/index.js";
import { headerLine, type StepVerdict, stepLine } from "./trajectory-lines.js";
import { warrenVersion } from "./warren-version.js";

/**
 * Watches a run from before its start and hands on each decision as a trajectory step as it
 * resolves, whoever made it. Only a run being recorded pays for it: the envelopes of agents
 * played in process are built for it, and the run's scores and hash are read at each decision.
 */
export class TrajectoryRecorder {
  /** What each agent saw, by observation id, until its decision resolves. */
  private readonly seen = new Map<string, Envelope>();
  /** Each remote agent's commands not accepted since its last step. */
  private readonly refusedCommands = new Map<string, StepVerdict[]>();
  private simEvents = 0;
  private steps = 0;

  constructor(
    private readonly run: Run,
    onStep: (step: TrajectoryStep) => void,
  ) {
    run.onWake((envelope) => this.seen.set(envelope.observation_id, envelope));
    run.onEvent((event) => {
      if (event.sim) this.simEvents++;
      else if (event.kind === "verdict") {
        const { agent, ...verdict } = event.data;
        const list = this.refusedCommands.get(agent) ?? [];
        list.push(verdict);
        this.refusedCommands.set(agent, list);
      }
    });
    run.onDecision((event, resolution) => {
      const { agent, observation_id } = event.data;
      const seen = this.seen.get(observation_id)!;
      this.seen.delete(observation_id);
      const verdicts = this.refusedCommands.get(agent) ?? [];
      this.refusedCommands.delete(agent);
      this.steps++;
      onStep(stepLine(seen, event, resolution, verdicts, this.run.summary()));
    });
  }

  /** The header of the ended run; `sweep` names a sweep's run. */
  header(ended: RunSummary, sweep?: TrajectoryHeader["sweep"]): TrajectoryHeader {
    const run = this.run;
    const agents = run.agents().map((agent) => ({ ...agent, briefing: run.briefing(agent.agent_id) }));
    return headerLine(
      {
        scenario: run.scenario.name,
        seed: run.seed,
        trial: run.trial,
        affordances: run.affordanceMode,
        npc_policy: run.npcPolicy,
        controlled_agents: agents.filter((a) => a.controller === "remote").map((a) => a.agent_id),
        warren_version: warrenVersion(),
        briefing_revision: BRIEFING_REVISION,
        sweep,
        agents,
      },
      ended,
      { sim_events: this.simEvents, steps: this.steps },
    );
  }
}
