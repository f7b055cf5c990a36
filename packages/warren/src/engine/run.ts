import { BRIEFING_REVISION, buildBriefing } from "./briefing.js";
import { type Clock, realClock } from "./clock.js";
import { CommandLedger } from "./command-ledger.js";
import { renderText } from "./envelope-text.js";
import { RunError } from "./errors.js";
import { EventLog } from "./event-log.js";
import type { ScenarioDefinition, SolutionRunner } from "./scenario.js";
import { decisionFields, type PendingWake, Simulation } from "./simulation.js";
import { argsProblem, describeValue } from "./tool-validation.js";
import type {
  AgentSummary,
  Briefing,
  Controller,
  Decision,
  Envelope,
  NpcPolicy,
  Observation,
  Receipt,
  RunEvent,
  RunStatus,
  RunSummary,
} from "./types.js";
import type { World } from "./world.js";

export const DEFAULT_DECISION_TIMEOUT_MS = 60_000;
/** Batches processed in one go before yielding to the event loop, so a server stays responsive. */
const BATCHES_PER_SLICE = 2_000;

export interface RunOptions {
  runId: string;
  scenario: ScenarioDefinition;
  seed: number;
  /** Agents played by remote clients; their wakes wait for commands (or their deadlines). */
  controlledAgents?: readonly string[];
  /** "solution": the scenario's runners play everyone else; "none": everyone else no-ops. */
  npcPolicy?: NpcPolicy;
  /** null: as fast as wakes are answered; a number: that many sim ms per wall ms. */
  pace?: number | null;
  /** Wall time a remote agent has to answer a wake before a noop is recorded for it. */
  decisionTimeoutMs?: number;
  clock?: Clock;
  /** Keep every event for `events(since)`; off only for long in-process runs that need the hash. */
  retainEvents?: boolean;
  /** Answers recorded in an earlier run's log, keyed by observation id: every agent is replayed. */
  replay?: ReadonlyMap<string, { decision: Decision; expired: boolean }>;
}

/**
 * A run: the deterministic simulation plus everything around it that involves wall time and
 * remote agents: deadlines, pace, the command ledger, the event log and notifications.
 */
export class Run {
  readonly id: string;
  readonly scenario: ScenarioDefinition;
  readonly seed: number;
  readonly pace: number | null;
  readonly decisionTimeoutMs: number;
  readonly npcPolicy: NpcPolicy;
  private readonly sim: Simulation;
  private readonly clock: Clock;
  private readonly log: EventLog;
  private readonly controllers = new Map<string, Controller>();
  private readonly runners = new Map<string, SolutionRunner>();
  private readonly briefings = new Map<string, Briefing>();
  private readonly envelopes = new Map<string, Envelope>();
  /** Each agent's latest wake, whoever plays it: what a spectator may ask to read. */
  private readonly latestWakes = new Map<string, PendingWake>();
  private readonly ledger = new CommandLedger();
  private readonly deadlineTimers = new Map<string, () => void>();
  private readonly observationListeners = new Set<(envelope: Envelope) => void>();
  private readonly endListeners = new Set<(summary: RunSummary) => void>();
  private readonly replay?: RunOptions["replay"];
  private runStatus: RunStatus = "created";
  private crashReason = "";
  private pumping = false;
  private pumpQueued = false;
  private cancelPaceTimer: (() => void) | undefined;
  /** With a pace, the sim time that wall time has caught up with. */
  private paceReached = 0;
  private readonly ended: Promise<RunSummary>;
  private resolveEnded!: (summary: RunSummary) => void;

  constructor(options: RunOptions) {
    if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 0xffffffff) {
      throw new RunError(
        "invalid_run_options",
        `seed must be an integer from 0 to 4294967295 (got ${describeValue(options.seed)})`,
      );
    }
    const pace = options.pace ?? null;
    if (pace !== null && !(typeof pace === "number" && Number.isFinite(pace) && pace > 0)) {
      throw new RunError(
        "invalid_run_options",
        `pace must be null or a positive number of sim ms per wall ms (got ${describeValue(pace)})`,
      );
    }
    const timeout = options.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS;
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new RunError(
        "invalid_run_options",
        `decision timeout must be a positive number of ms (got ${describeValue(timeout)})`,
      );
    }
    const policy = options.npcPolicy ?? "solution";
    if (policy !== "solution" && policy !== "none") {
      throw new RunError(
        "invalid_run_options",
        `npc_policy must be "solution" or "none" (got ${describeValue(policy)})`,
      );
    }
    const known = options.scenario.agents.map((a) => a.id);
    for (const id of options.controlledAgents ?? []) {
      if (!known.includes(id)) {
        throw new RunError(
          "unknown_agent",
          `${options.scenario.name} has no agent "${id}"; its agents are ${known.join(", ")}`,
        );
      }
    }
    this.id = options.runId;
    this.scenario = options.scenario;
    this.seed = options.seed;
    this.pace = pace;
    this.decisionTimeoutMs = timeout;
    this.npcPolicy = policy;
    this.clock = options.clock ?? realClock;
    this.replay = options.replay;
    this.log = new EventLog(options.retainEvents ?? true);
    this.sim = new Simulation(options.scenario, options.seed, (t, kind, data) =>
      this.log.append(true, t, kind, data),
    );
    const remote = new Set(options.controlledAgents ?? []);
    for (const a of options.scenario.agents) {
      const controller: Controller = remote.has(a.id) ? "remote" : policy;
      this.controllers.set(a.id, options.replay ? "solution" : controller);
      if (controller === "solution" && !options.replay)
        this.runners.set(a.id, options.scenario.solution(a.id));
    }
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  get status(): RunStatus {
    return this.runStatus;
  }

  get statusReason(): string {
    return this.runStatus === "crashed" ? this.crashReason : this.sim.statusReason;
  }

  /** The world as it stands, for spectators to draw: read it, never change it. */
  get world(): World {
    return this.sim.world;
  }

  get simTimeMs(): number {
    return this.sim.now;
  }

  get isEnded(): boolean {
    return this.runStatus === "completed" || this.runStatus === "failed" || this.runStatus === "crashed";
  }

  /** Starts the simulation; wakes for remote agents become available as envelopes. */
  start(): void {
    if (this.runStatus !== "created") return;
    this.runStatus = "running";
    this.log.append(false, 0, "status", { status: "running" });
    this.sim.start();
    this.pump();
  }

  agents(): AgentSummary[] {
    return this.scenario.agents.map((a) => ({
      agent_id: a.id,
      name: a.name,
      role: a.role,
      controller: this.controllers.get(a.id)!,
    }));
  }

  controllerOf(agentId: string): Controller | undefined {
    return this.controllers.get(agentId);
  }

  briefing(agentId: string): Briefing {
    this.requireAgent(agentId);
    let briefing = this.briefings.get(agentId);
    if (!briefing) {
      // Built on first request: its content is fixed at revision 1, whenever it is asked for.
      const agent = this.sim.world.agents.get(agentId)!;
      const tools = this.sim.toolsByAgent.get(agentId)!.values();
      briefing = buildBriefing(this.id, this.scenario, this.sim.world, agent, tools);
      this.briefings.set(agentId, briefing);
    }
    return briefing;
  }

  /** The agent's outstanding envelope (redelivered as often as asked), if it has one. */
  outstanding(agentId: string): Envelope | undefined {
    this.requireAgent(agentId);
    return this.envelopes.get(agentId);
  }

  /**
   * The agent's outstanding envelope with seq > afterSeq, waiting up to waitMs wall ms for one.
   * Resolves undefined on timeout or when the run ends.
   */
  nextObservation(agentId: string, afterSeq: number, waitMs: number): Promise<Envelope | undefined> {
    this.requireAgent(agentId);
    const ready = this.envelopes.get(agentId);
    if (ready && ready.seq > afterSeq) return Promise.resolve(ready);
    if (this.isEnded || waitMs <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let cancelTimer = (): void => {};
      const finish = (envelope: Envelope | undefined): void => {
        cancelTimer();
        offObservation();
        offEnd();
        resolve(envelope);
      };
      const offObservation = this.onObservation((envelope) => {
        if (envelope.agent_id === agentId && envelope.seq > afterSeq) finish(envelope);
      });
      const offEnd = this.onEnd(() => finish(undefined));
      cancelTimer = this.clock.setTimer(waitMs, () => finish(undefined));
    });
  }

  /**
   * Judges a command from a remote agent and returns its receipt. Throws RunError
   * "unprocessable_command" when command_id or observation_id is not a string (nothing to
   * deduplicate on), "unknown_agent" or "not_remote".
   */
  submit(agentId: string, body: unknown): Receipt {
    this.requireAgent(agentId);
    if (this.controllers.get(agentId) !== "remote") {
      throw new RunError("not_remote", `${agentId} is not controlled remotely in this run`);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new RunError(
        "unprocessable_command",
        `a command must be a JSON object (got ${describeValue(body)})`,
      );
    }
    const command = body as Record<string, unknown>;
    for (const field of ["command_id", "observation_id"] as const) {
      if (typeof command[field] !== "string") {
        throw new RunError(
          "unprocessable_command",
          `${field} must be a string (got ${describeValue(command[field])})`,
        );
      }
    }
    const commandId = command.command_id as string;
    const observationId = command.observation_id as string;
    const { receipt, decision } = this.ledger.judge(agentId, commandId, observationId, command, {
      tools: this.sim.toolsByAgent.get(agentId)!,
      outstanding: this.envelopes.get(agentId)?.observation_id,
      runStatus: this.runStatus,
    });
    if (decision) {
      this.closeEnvelope(agentId);
      this.sim.answer(agentId, decision);
    }
    this.log.append(false, this.sim.now, "verdict", {
      agent: agentId,
      command_id: commandId,
      observation_id: observationId,
      status: receipt.status,
      detail: receipt.detail,
    });
    if (receipt.status === "accepted") this.pump();
    return receipt;
  }

  /**
   * The agent's latest observation and its text, whoever plays it (affordances are listed only
   * for remote agents, whose envelope is rendered with them); undefined before its first wake.
   */
  latestObservation(
    agentId: string,
  ): { observation_id: string; observation: Observation; text: string } | undefined {
    this.requireAgent(agentId);
    const wake = this.latestWakes.get(agentId);
    if (!wake) return undefined;
    const envelope = this.envelopes.get(agentId);
    const text =
      envelope?.observation_id === wake.observationId ? envelope.text : renderText(wake.observation, []);
    return { observation_id: wake.observationId, observation: wake.observation, text };
  }

  /** The receipt of an accepted command, with its current outcome; undefined if none was accepted. */
  receipt(agentId: string, commandId: string): Receipt | undefined {
    return this.ledger.receipt(agentId, commandId);
  }

  summary(): RunSummary {
    return {
      run_id: this.id,
      scenario: this.scenario.name,
      seed: this.seed,
      status: this.runStatus,
      status_reason: this.statusReason,
      pace: this.pace,
      sim_time_ms: this.sim.now,
      objectives: this.sim.world.objectiveViews(),
      agents: this.agents(),
      event_cursor: this.log.latest,
      log_hash: this.log.digest(),
    };
  }

  /** Events after `cursor` (0 for all), at most `limit`. */
  events(since = 0, limit?: number): RunEvent[] {
    return this.log.since(since, limit);
  }

  get eventCursor(): number {
    return this.log.latest;
  }

  /** sha256 of the simulation's event log so far. */
  logHash(): string {
    return this.log.digest();
  }

  onEvent(listener: (event: RunEvent) => void): () => void {
    return this.log.subscribe(listener);
  }

  /** Called for every new envelope of a remote agent. */
  onObservation(listener: (envelope: Envelope) => void): () => void {
    this.observationListeners.add(listener);
    return () => this.observationListeners.delete(listener);
  }

  /** Called once when the run completes, fails or crashes. */
  onEnd(listener: (summary: RunSummary) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Resolves with the final summary when the run ends. */
  whenEnded(): Promise<RunSummary> {
    return this.ended;
  }

  /** Stops a run that is still going (a server shutting down): it ends as crashed, never a stale running. */
  dispose(reason = "the run was stopped before it ended"): void {
    if (this.isEnded) return;
    this.crash(reason);
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpQueued = true;
      return;
    }
    if (this.isEnded || this.runStatus === "created") return;
    this.pumping = true;
    try {
      this.pumpQueued = false;
      this.advance();
    } catch (error) {
      this.crash(error instanceof Error ? `${error.message}` : String(error));
    } finally {
      this.pumping = false;
    }
    if (this.pumpQueued && !this.isEnded) queueMicrotask(() => this.pump());
  }

  private advance(): void {
    let batches = 0;
    while (!this.sim.ended) {
      if (this.sim.batchSize > 0) {
        if (this.sim.unansweredCount > 0) return;
        this.ledger.settle(this.sim.resolve());
        continue;
      }
      const next = this.sim.nextTime();
      if (this.pace !== null && next !== undefined && next > this.paceReached) {
        if (this.cancelPaceTimer) return;
        this.cancelPaceTimer = this.clock.setTimer((next - this.sim.now) / this.pace, () => {
          this.cancelPaceTimer = undefined;
          this.paceReached = next;
          this.pump();
        });
        return;
      }
      const batch = this.sim.step();
      for (const wake of batch) this.dispatch(wake);
      if (++batches >= BATCHES_PER_SLICE) {
        setImmediate(() => this.pump());
        return;
      }
    }
    this.finish();
  }

  /** Hands a wake to whoever plays the agent. */
  private dispatch(wake: PendingWake): void {
    this.latestWakes.set(wake.agentId, wake);
    if (this.replay) {
      const recorded = this.replay.get(wake.observationId);
      if (!recorded)
        throw new Error(`the replayed log has no decision for ${wake.observationId}; the run diverged`);
      this.sim.answer(wake.agentId, this.checked(wake.agentId, recorded.decision), recorded.expired);
      return;
    }
    const controller = this.controllers.get(wake.agentId)!;
    if (controller === "none") {
      this.sim.answer(wake.agentId, { kind: "noop" });
      return;
    }
    if (controller === "solution") {
      const decision = this.runners.get(wake.agentId)!.decide(wake.observation);
      this.sim.answer(wake.agentId, this.checked(wake.agentId, decision));
      return;
    }
    const envelope = this.envelopeFor(wake);
    this.envelopes.set(wake.agentId, envelope);
    this.ledger.issue(wake.observationId);
    this.deadlineTimers.set(
      wake.agentId,
      this.clock.setTimer(this.decisionTimeoutMs, () => this.expire(wake.agentId, wake.observationId)),
    );
    for (const listener of this.observationListeners) listener(envelope);
  }

  /** A runner's or a log's decision must be as valid as a remote one; if not, the run crashes. */
  private checked(agentId: string, decision: Decision): Decision {
    if (decision.kind !== "action") return decision;
    const tool = this.sim.toolsByAgent.get(agentId)!.get(decision.action);
    if (!tool) throw new Error(`${agentId} chose an action it does not have: ${decision.action}`);
    const problem = argsProblem(decision.action, tool.spec.input_schema, decision.args);
    if (problem) throw new Error(`${agentId} chose invalid args: ${problem}`);
    return decision;
  }

  private envelopeFor(wake: PendingWake): Envelope {
    const affordances = this.sim.affordances(wake.agentId);
    return {
      run_id: this.id,
      agent_id: wake.agentId,
      observation_id: wake.observationId,
      seq: wake.seq,
      sim_time_ms: this.sim.now,
      reason: wake.reason,
      deadline_unix: (this.clock.now() + this.decisionTimeoutMs) / 1000,
      briefing_revision: BRIEFING_REVISION,
      observation: wake.observation,
      text: renderText(wake.observation, affordances),
      affordances,
    };
  }

  private expire(agentId: string, observationId: string): void {
    if (!this.ledger.isOutstanding(observationId) || this.isEnded) return;
    this.ledger.expire(observationId);
    this.closeEnvelope(agentId);
    this.log.append(false, this.sim.now, "expired", { agent: agentId, observation_id: observationId });
    this.sim.answer(agentId, { kind: "noop" }, true);
    this.pump();
  }

  private closeEnvelope(agentId: string): void {
    this.envelopes.delete(agentId);
    this.deadlineTimers.get(agentId)?.();
    this.deadlineTimers.delete(agentId);
  }

  private finish(): void {
    if (this.isEnded) return;
    this.runStatus = this.sim.status === "completed" ? "completed" : "failed";
    this.close();
  }

  private crash(reason: string): void {
    if (this.isEnded) return;
    this.runStatus = "crashed";
    this.crashReason = reason;
    this.log.append(false, this.sim.now, "status", { status: "crashed", reason });
    this.close();
  }

  private close(): void {
    this.cancelPaceTimer?.();
    this.cancelPaceTimer = undefined;
    for (const cancel of this.deadlineTimers.values()) cancel();
    this.deadlineTimers.clear();
    this.ledger.close();
    this.envelopes.clear();
    if (this.runStatus !== "crashed") {
      this.log.append(false, this.sim.now, "status", { status: this.runStatus, reason: this.statusReason });
    }
    const summary = this.summary();
    for (const listener of this.endListeners) listener(summary);
    this.endListeners.clear();
    this.resolveEnded(summary);
  }

  private requireAgent(agentId: string): void {
    if (!this.controllers.has(agentId)) throw this.unknownAgent(agentId);
  }

  private unknownAgent(agentId: string): RunError {
    return new RunError(
      "unknown_agent",
      `${this.scenario.name} has no agent "${agentId}"; its agents are ${[...this.controllers.keys()].join(", ")}`,
    );
  }
}

/** The decisions of a run's log, keyed by observation id, ready for `replay`. */
export function decisionsFromEvents(
  events: readonly RunEvent[],
): Map<string, { decision: Decision; expired: boolean }> {
  const out = new Map<string, { decision: Decision; expired: boolean }>();
  for (const e of events) {
    if (!e.sim || e.kind !== "decision") continue;
    const d = e.data;
    const decision: Decision =
      typeof d.action === "string"
        ? { kind: "action", action: d.action, args: (d.args ?? {}) as Record<string, unknown> }
        : typeof d.sleep_ms === "number"
          ? { kind: "sleep", sleep_ms: d.sleep_ms }
          : { kind: "noop" };
    out.set(String(d.observation_id), { decision, expired: d.expired === true });
  }
  return out;
}

export { decisionFields };
