import { CORE_TOOLS } from "./core-tools.js";
import { EventQueue } from "./event-queue.js";
import type { DecisionData, SimEventData, SimEventKind } from "./events.js";
import { cellName } from "./grid.js";
import { buildAffordances, buildObservation } from "./observation.js";
import { SeededRandom } from "./random.js";
import type { ScenarioDefinition } from "./scenario.js";
import { type ToolContext, type ToolDefinition, toolsFor } from "./tool.js";
import type {
  Affordance,
  AffordanceMode,
  Decision,
  Observation,
  OwnOutcome,
  ToolArgs,
  WakeReason,
} from "./types.js";
import { type AgentState, World } from "./world.js";

/**
 * The deterministic core. It knows sim milliseconds only: no wall clock, no I/O. The same
 * scenario, seed and decisions give the same run, event for event.
 *
 * Cycle: `step()` processes every event of the next sim millisecond and wakes the agents those
 * events concern; the woken agents form a batch. The core does not move on until every wake of
 * the batch is answered (`answer`). `resolve()` then applies the batch's decisions in a seeded
 * order: the batch's agent ids, sorted, shuffled by the run's generator.
 */

/** Where events go; a `decision` event comes with how the decision resolved. */
export type SimEmit = <K extends SimEventKind>(
  simTimeMs: number,
  kind: K,
  data: SimEventData[K],
  resolution?: Resolution,
) => void;

type AgendaItem =
  | { type: "timer"; agent: string; token: number; reason: WakeReason }
  | {
      type: "finish";
      agent: string;
      lane: string;
      token: number;
      finish?: () => string | null;
      reason: WakeReason;
    }
  | { type: "deadline"; objective: string }
  | { type: "time_limit" };

export interface PendingWake {
  agentId: string;
  observationId: string;
  seq: number;
  reason: WakeReason;
  observation: Observation;
  decision?: Decision;
  /** The decision was recorded because the wake's deadline passed. */
  expired?: boolean;
}

export interface Resolution {
  agentId: string;
  observationId: string;
  outcome: "accepted" | "rejected";
  reason: string;
}

export type SimStatus = "running" | "completed" | "failed";

/** Which reason names a wake when several fall in the same millisecond: the most specific wins. */
const REASON_RANK: Record<WakeReason, number> = {
  start: 0,
  arrived: 1,
  failed: 2,
  done: 3,
  refused: 4,
  message: 5,
  timer: 6,
  idle: 7,
};

const NO_WAKES: readonly PendingWake[] = [];

/** How long a noop leaves an agent alone when nothing else wakes it. */
export const IDLE_WAKE_MS = 60_000;

/**
 * A refusal costs sim time, doubling with each refusal in a row up to IDLE_WAKE_MS: an agent that
 * keeps sending what the world refuses cannot hold sim time still (and so its run for ever).
 */
export const REFUSAL_BASE_MS = 100;

export function refusalDelayMs(streak: number): number {
  return Math.min(IDLE_WAKE_MS, REFUSAL_BASE_MS * 2 ** Math.min(streak - 1, 20));
}

export class Simulation {
  readonly world: World;
  readonly rng: SeededRandom;
  now = 0;
  status: SimStatus = "running";
  statusReason = "";
  readonly toolsByAgent = new Map<string, Map<string, ToolDefinition>>();
  private readonly toolListByAgent = new Map<string, ToolDefinition[]>();
  private readonly agenda = new EventQueue<AgendaItem>();
  private readonly wakeRequests = new Map<string, WakeReason>();
  private batch = new Map<string, PendingWake>();
  /** The batch's wakes in the order they were formed (their agent ids sorted). */
  private formed: readonly PendingWake[] = NO_WAKES;
  private readonly ctx: ToolContext;
  private events = 0;
  private waiting = 0;
  /** The agent whose action is taking effect, to whom objective progress is credited. */
  private actor: string | null = null;
  /** Why objectives failed before their deadlines. */
  private readonly failures = new Map<string, string>();

  /** When the run fails for time: the scenario's limit, or the run's own if that is sooner. */
  readonly timeLimitMs: number;

  constructor(
    readonly scenario: ScenarioDefinition,
    readonly seed: number,
    private readonly emitSink: SimEmit,
    private readonly affordanceMode: AffordanceMode = "ready",
    runTimeLimitMs: number = Number.POSITIVE_INFINITY,
  ) {
    this.timeLimitMs = Math.min(scenario.timeLimitMs, runTimeLimitMs);
    this.rng = new SeededRandom(seed);
    this.world = new World(scenario.budgets);
    scenario.build(this.world, this.rng);
    const allTools = [...CORE_TOOLS, ...scenario.tools];
    for (const a of scenario.agents) {
      const place = this.world.places.get(a.start);
      if (!place)
        throw new Error(`scenario ${scenario.name}: agent ${a.id} starts at unknown place ${a.start}`);
      this.world.addAgent(a.id, a.name, a.role, place.cell);
      const tools = toolsFor(allTools, a.role);
      this.toolListByAgent.set(a.id, tools);
      this.toolsByAgent.set(a.id, new Map(tools.map((t) => [t.spec.name, t])));
    }
    for (const o of scenario.objectives) this.world.addObjective(o.id, o.description, o.target, o.deadlineMs);
    const sim = this;
    this.ctx = {
      world: this.world,
      get now() {
        return sim.now;
      },
      msPerCell: scenario.msPerCell,
      rng: this.rng,
      emit: (kind, data) => this.emit(kind, data),
      progress: (id, delta) => this.progress(id, delta),
      deliver: (from, to, text) => {
        to.inbox.push({ from: from.id, from_name: from.name, text, sent_ms: this.now });
        this.emit("message", { from: from.id, to: to.id, text });
        this.requestWake(to.id, "message");
        scenario.react?.(this.ctx, { kind: "messaged", agent: from, to, text });
      },
      react: (happening) => scenario.react?.(this.ctx, happening),
      credit: (agent, what) => this.emit("credit", { agent: agent.id, what }),
      fail: (id, reason) => this.failObjective(id, reason),
    };
  }

  /** Simulation events emitted so far. */
  get eventCount(): number {
    return this.events;
  }

  get ended(): boolean {
    return this.status !== "running";
  }

  start(): void {
    this.emit("run_started", { scenario: this.scenario.name, seed: this.seed });
    for (const id of this.world.agents.keys()) this.requestWake(id, "start");
    for (const o of this.world.objectives.values()) {
      if (o.deadlineMs !== null) this.agenda.push(o.deadlineMs, { type: "deadline", objective: o.id }, 1);
    }
    this.agenda.push(this.timeLimitMs, { type: "time_limit" }, 2);
  }

  /** The outstanding wakes of the current batch. */
  currentBatch(): PendingWake[] {
    return [...this.batch.values()];
  }

  pending(agentId: string): PendingWake | undefined {
    return this.batch.get(agentId);
  }

  /** The affordances of an outstanding wake (built on demand: only remote agents need them). */
  affordances(agentId: string): Affordance[] {
    const wake = this.batch.get(agentId);
    if (!wake) return [];
    const agent = this.world.agents.get(agentId)!;
    return buildAffordances(
      this.ctx,
      agent,
      this.toolListByAgent.get(agentId)!,
      wake.observation,
      this.affordanceMode,
    );
  }

  /** How many wakes the current batch has, and how many of them are still unanswered. */
  get batchSize(): number {
    return this.batch.size;
  }

  get unansweredCount(): number {
    return this.waiting;
  }

  /** Agents of the current batch that have not answered yet. */
  unanswered(): string[] {
    return [...this.batch.values()].filter((w) => !w.decision).map((w) => w.agentId);
  }

  /** The sim time the next step will reach, or undefined when nothing is left to happen. */
  nextTime(): number | undefined {
    if (this.wakeRequests.size > 0) return this.now;
    return this.agenda.peek()?.time;
  }

  /**
   * Processes everything at the next sim millisecond and returns the batch of wakes it forms
   * (possibly empty). Only valid with no batch outstanding.
   */
  step(): PendingWake[] {
    if (this.batch.size > 0) throw new Error("step() with a batch outstanding");
    if (this.ended) return [];
    if (this.wakeRequests.size === 0) {
      const next = this.agenda.peek();
      if (!next) {
        this.end("failed", "nothing is left to happen and the objectives are unmet");
        return [];
      }
      this.now = next.time;
      while (!this.ended && this.agenda.peek()?.time === this.now) this.process(this.agenda.pop()!.payload);
      if (this.ended) return [];
    }
    return this.formBatch();
  }

  /** Records an agent's answer to its outstanding wake. */
  answer(agentId: string, decision: Decision, expired = false): void {
    const wake = this.batch.get(agentId);
    if (!wake) throw new Error(`${agentId} has no outstanding wake`);
    if (wake.decision) throw new Error(`${agentId} already answered ${wake.observationId}`);
    wake.decision = decision;
    this.waiting--;
    if (expired) wake.expired = true;
  }

  /** Applies every decision of a fully answered batch, in the seeded order. */
  resolve(): Resolution[] {
    if (this.waiting > 0) throw new Error(`resolve() with unanswered wakes: ${this.unanswered().join(", ")}`);
    // Shuffling the wakes permutes them as shuffling their ids would: the order depends only on the count.
    const order = this.rng.shuffled(this.formed);
    this.batch = new Map();
    this.formed = NO_WAKES;
    const results: Resolution[] = [];
    for (const wake of order) results.push(this.apply(wake));
    this.checkEnd();
    return results;
  }

  /** Ends the run from outside the rules (the driver's crash path uses this too). */
  end(status: "completed" | "failed", reason: string): void {
    if (this.ended) return;
    this.status = status;
    this.statusReason = reason;
    this.wakeRequests.clear();
    this.emit("run_ended", { status, reason, objectives: this.world.objectiveViews() });
  }

  private emit<K extends SimEventKind>(kind: K, data: SimEventData[K], resolution?: Resolution): void {
    this.events++;
    this.emitSink(this.now, kind, data, resolution);
  }

  private requestWake(agentId: string, reason: WakeReason): void {
    const current = this.wakeRequests.get(agentId);
    if (current === undefined || REASON_RANK[reason] < REASON_RANK[current])
      this.wakeRequests.set(agentId, reason);
  }

  private formBatch(): PendingWake[] {
    const ids = [...this.wakeRequests.keys()].sort();
    const formed: PendingWake[] = [];
    for (const id of ids) {
      const reason = this.wakeRequests.get(id)!;
      const agent = this.world.agents.get(id)!;
      agent.wakeToken++;
      const seq = agent.seq++;
      const observationId = `${id}#${seq}`;
      const observation = buildObservation(
        this.ctx,
        this.scenario,
        agent,
        reason,
        this.toolListByAgent.get(id)!,
        this.affordanceMode,
      );
      agent.inbox = [];
      agent.outcomes = [];
      const wake: PendingWake = { agentId: id, observationId, seq, reason, observation };
      this.batch.set(id, wake);
      formed.push(wake);
      // A wake after a refusal is announced by the refusal's decision event (`wakes_at_ms`).
      if (reason !== "refused") this.emit("wake", { agent: id, observation_id: observationId, reason });
    }
    this.wakeRequests.clear();
    this.waiting = formed.length;
    this.formed = formed;
    return formed;
  }

  private process(item: AgendaItem): void {
    switch (item.type) {
      case "timer": {
        const agent = this.world.agents.get(item.agent)!;
        if (agent.wakeToken === item.token) this.requestWake(item.agent, item.reason);
        return;
      }
      case "finish": {
        const agent = this.world.agents.get(item.agent)!;
        const lane = agent.lanes.get(item.lane);
        if (!lane || lane.token !== item.token) return;
        agent.lanes.delete(item.lane);
        this.actor = agent.id;
        const failure = item.finish?.() ?? null;
        this.actor = null;
        const observationId = `${agent.id}#${lane.token}`;
        this.note(agent, {
          observation_id: observationId,
          action: lane.action,
          result: failure ? "failed" : "done",
          reason: failure ?? "",
        });
        this.emit("action_ended", {
          agent: agent.id,
          action: lane.action,
          result: failure ? "failed" : "done",
        });
        this.requestWake(agent.id, failure ? "failed" : item.reason);
        this.checkEnd();
        return;
      }
      case "deadline": {
        const o = this.world.objectives.get(item.objective)!;
        if (o.status === "pending") {
          o.status = "failed";
          this.world.objectivesChanged();
          this.emit("objective", { id: o.id, status: o.status, current: o.current, target: o.target });
        }
        this.checkEnd();
        return;
      }
      case "time_limit": {
        const unmet = [...this.world.objectives.values()]
          .filter((o) => o.status !== "completed")
          .map((o) => o.id);
        const whose = this.timeLimitMs < this.scenario.timeLimitMs ? "run's sim-time" : "time";
        this.end(
          "failed",
          `the ${whose} limit of ${this.timeLimitMs / 1000} s passed with ${unmet.join(", ")} unmet`,
        );
        return;
      }
    }
  }

  private apply(wake: PendingWake): Resolution {
    const agent = this.world.agents.get(wake.agentId)!;
    const decision = wake.decision!;
    if (this.ended) return this.logDecision(wake, "rejected", "the run ended");
    if (decision.kind === "noop") {
      this.wakeLater(agent, IDLE_WAKE_MS, "idle");
      return this.accepted(agent, wake);
    }
    if (decision.kind === "sleep") {
      this.wakeLater(agent, decision.sleep_ms, "timer");
      return this.accepted(agent, wake);
    }
    const tool = this.toolsByAgent.get(agent.id)!.get(decision.action);
    if (!tool)
      return this.refuse(agent, wake, decision.action, `You have no tool called ${decision.action}.`);
    const busy = agent.lanes.get(tool.spec.lane);
    if (busy) {
      return this.refuse(
        agent,
        wake,
        decision.action,
        `Your ${tool.spec.lane} lane is busy with ${busy.action} until t=${busy.until_ms / 1000}s.`,
        "You will wake when it is done, or act on another lane meanwhile.",
      );
    }
    this.actor = agent.id;
    const begun = tool.begin(this.ctx, agent, decision.args);
    this.actor = null;
    if ("refused" in begun) return this.refuse(agent, wake, decision.action, begun.refused, begun.hint);
    const resolution = this.accepted(agent, wake);
    // Every action takes at least a millisecond, so no sequence of actions holds sim time still.
    const durationMs = Math.max(1, begun.durationMs);
    this.emit("action_started", {
      agent: agent.id,
      action: decision.action,
      args: decision.args,
      until_ms: this.now + durationMs,
      cell: cellName(agent.cell),
    });
    if (tool.spec.durative) {
      agent.lanes.set(tool.spec.lane, {
        lane: tool.spec.lane,
        action: decision.action,
        args: decision.args,
        since_ms: this.now,
        until_ms: this.now + durationMs,
        token: wake.seq,
        // Present from the start, so every lane has one shape however observations fill them in.
        seen: undefined,
        whyNot: undefined,
      });
      this.agenda.push(this.now + durationMs, {
        type: "finish",
        agent: agent.id,
        lane: tool.spec.lane,
        token: wake.seq,
        finish: begun.finish,
        reason: begun.doneReason ?? "done",
      });
    } else {
      this.note(agent, {
        observation_id: wake.observationId,
        action: decision.action,
        result: "done",
        reason: "",
      });
      this.wakeLater(agent, durationMs, begun.doneReason ?? "done");
    }
    return resolution;
  }

  /**
   * A decision's event, with how it resolved. Logged when its batch resolves, in the seeded order,
   * not when answered: answers arrive in wall-clock order. (Built field by field, in the order
   * the log hash has always seen them: decisions are the most frequent event.)
   */
  private logDecision(
    wake: PendingWake,
    outcome: Resolution["outcome"],
    reason = "",
    refusal?: { refused: string; wakes_at_ms: number },
  ): Resolution {
    const resolution: Resolution = {
      agentId: wake.agentId,
      observationId: wake.observationId,
      outcome,
      reason,
    };
    const data = decisionData(wake);
    if (wake.expired) data.expired = true;
    if (refusal) {
      data.refused = refusal.refused;
      data.wakes_at_ms = refusal.wakes_at_ms;
    }
    this.emit("decision", data, resolution);
    return resolution;
  }

  private accepted(agent: AgentState, wake: PendingWake): Resolution {
    agent.refusalStreak = 0;
    return this.logDecision(wake, "accepted");
  }

  /**
   * A refusal is one event: its decision, carrying why and when the agent wakes again (the wake
   * it causes is not logged apart).
   */
  private refuse(
    agent: AgentState,
    wake: PendingWake,
    action: string,
    why: string,
    hint?: string,
  ): Resolution {
    const sentence = hint && this.affordanceMode === "ready" ? `${why} ${hint}` : why;
    this.note(agent, { observation_id: wake.observationId, action, result: "refused", reason: sentence });
    agent.refusalStreak++;
    const delayMs = refusalDelayMs(agent.refusalStreak);
    this.wakeLater(agent, delayMs, "refused");
    return this.logDecision(wake, "rejected", sentence, {
      refused: sentence,
      wakes_at_ms: this.now + delayMs,
    });
  }

  /** Wakes the agent after `ms` unless something wakes it first. */
  private wakeLater(agent: AgentState, ms: number, reason: WakeReason): void {
    this.agenda.push(this.now + ms, { type: "timer", agent: agent.id, token: agent.wakeToken, reason });
  }

  private note(agent: AgentState, outcome: OwnOutcome): void {
    agent.outcomes.push(outcome);
  }

  private progress(objectiveId: string, delta: number): void {
    const o = this.world.objectives.get(objectiveId);
    if (o?.status !== "pending") return;
    o.current = Math.max(0, Math.min(o.target, o.current + delta));
    if (o.current >= o.target) o.status = "completed";
    this.world.objectivesChanged();
    this.emit("objective", {
      id: o.id,
      status: o.status,
      current: o.current,
      target: o.target,
      by: this.actor,
    });
  }

  private failObjective(objectiveId: string, reason: string): void {
    const o = this.world.objectives.get(objectiveId);
    if (o?.status !== "pending") return;
    o.status = "failed";
    this.failures.set(o.id, reason);
    this.world.objectivesChanged();
    this.emit("objective", { id: o.id, status: o.status, current: o.current, target: o.target, reason });
    this.checkEnd();
  }

  private checkEnd(): void {
    if (this.ended) return;
    const objectives = [...this.world.objectives.values()];
    const failed = objectives.find((o) => o.status === "failed");
    if (failed) {
      const why = this.failures.get(failed.id);
      this.end(
        "failed",
        why
          ? `objective ${failed.id} failed: ${why}`
          : `objective ${failed.id} missed its deadline at t=${(failed.deadlineMs ?? 0) / 1000}s`,
      );
      return;
    }
    if (objectives.every((o) => o.status === "completed")) this.end("completed", "every objective is met");
  }
}

/** A decision as the command fields that express it, added to `into` (a new object by default). */
export function decisionFields(
  decision: Decision,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  if (decision.kind === "action") {
    into.action = decision.action;
    into.args = decision.args;
  } else if (decision.kind === "sleep") into.sleep_ms = decision.sleep_ms;
  else into.noop = true;
  return into;
}

/** The decision that command fields express (a decision event's data, a trajectory's command): decisionFields' inverse. */
export function decisionOf(fields: {
  action?: string;
  args?: ToolArgs;
  sleep_ms?: number;
  noop?: true;
}): Decision {
  if (fields.action !== undefined) return { kind: "action", action: fields.action, args: fields.args ?? {} };
  if (fields.sleep_ms !== undefined) return { kind: "sleep", sleep_ms: fields.sleep_ms };
  return { kind: "noop" };
}

/** A decision event's data: the agent and its observation, then the decision's own fields. */
function decisionData(wake: PendingWake): DecisionData {
  const fields = decisionFields(wake.decision!, { agent: wake.agentId, observation_id: wake.observationId });
  return fields as unknown as DecisionData;
}
