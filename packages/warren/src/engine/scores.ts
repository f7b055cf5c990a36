import type { RunEvent } from "./events.js";
import type { AgentScore, Controller, ObjectiveView, RunScores } from "./types.js";
import { countUsage, runUsage } from "./usage-totals.js";

/**
 * A run's scores, kept up to date from its simulation events as they are logged (so asking for
 * them costs nothing). Definitions are in docs/scenarios.md, "Scores".
 */
export class ScoreKeeper {
  private readonly byAgent = new Map<string, AgentScore>();
  private readonly progress = new Map<string, number>();

  constructor(
    agents: readonly { agent_id: string; controller: Controller }[],
    private readonly steps: number,
  ) {
    for (const a of agents) {
      this.byAgent.set(a.agent_id, {
        agent_id: a.agent_id,
        controller: a.controller,
        commands: 0,
        actions: 0,
        refusals: 0,
        messages: 0,
        credits: 0,
        contribution: 0,
      });
    }
  }

  observe(event: RunEvent): void {
    if (!event.sim) return;
    switch (event.kind) {
      case "decision": {
        const d = event.data;
        const score = this.byAgent.get(d.agent);
        if (!score || d.expired === true) return;
        score.commands++;
        if (d.action !== undefined) score.actions++;
        // A refusal is part of its decision's event.
        if (d.refused !== undefined) score.refusals++;
        // A remote command's usage rides on its decision, outside the hash.
        if (event.usage) score.usage = countUsage(score.usage, event.usage);
        return;
      }
      case "message":
        this.count(event.data.from, "messages");
        return;
      case "credit":
        this.count(event.data.agent, "credits");
        return;
      case "objective": {
        const { id, current, by } = event.data;
        const gained = current - (this.progress.get(id) ?? 0);
        this.progress.set(id, current);
        if (gained > 0) this.count(by, "credits", gained);
        return;
      }
    }
  }

  scores(
    simTimeMs: number,
    objectives: readonly ObjectiveView[],
    solutionSimTimeMs: number | null,
  ): RunScores {
    const met = objectives.filter((o) => o.status === "completed").length;
    const completed = met === objectives.length;
    const agents = [...this.byAgent.values()];
    const total = agents.reduce((sum, a) => sum + a.credits, 0);
    const score = completed ? 1 : partialScore(total, this.steps);
    const usage = runUsage(
      score,
      agents.map((a) => a.usage),
    );
    return {
      completed,
      score,
      objectives_met: met,
      objectives_total: objectives.length,
      sim_time_ms: simTimeMs,
      solution_sim_time_ms: solutionSimTimeMs,
      time_ratio:
        completed && solutionSimTimeMs ? Math.round((simTimeMs / solutionSimTimeMs) * 1000) / 1000 : null,
      agents: agents.map((a) => ({
        ...a,
        contribution: total === 0 ? 0 : Math.round((a.credits / total) * 1000) / 1000,
      })),
      ...(usage ? { usage } : {}),
    };
  }

  private count(agent: unknown, field: "refusals" | "messages" | "credits", by = 1): void {
    const score = typeof agent === "string" ? this.byAgent.get(agent) : undefined;
    if (score) score[field] += by;
  }
}

/** A failed run's share of the steps, to two decimals and short of a completed run's 1. */
export const MAX_PARTIAL_SCORE = 0.99;

function partialScore(credits: number, steps: number): number {
  return Math.min(MAX_PARTIAL_SCORE, Math.floor((credits / steps) * 100) / 100);
}
