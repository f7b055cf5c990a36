import { type BaselinePlayer, baselinePlayer } from "./baselines.js";
import { BRIEFING_REVISION, buildBriefing } from "./briefing.js";
import { type Clock, realClock } from "./clock.js";
import { CommandLedger } from "./command-ledger.js";
import { commandLimitProblem } from "./command-limits.js";
import { usageOf } from "./command-usage.js";
import { renderText } from "./envelope-text.js";
import { RunError } from "./errors.js";
import { EventLog } from "./event-log.js";
import type { EventOf, RunEvent } from "./events.js";
import { awaitObservation, type ObservationSource, type ObservationWait } from "./observation-wait.js";
import type { ScenarioDefinition, SolutionRunner } from "./scenario.js";
import { ScoreKeeper } from "./scores.js";
import { decisionFields, decisionOf, type PendingWake, type Resolution, Simulation } from "./simulation.js";
import { rememberSolutionSimTime, solutionSimTime } from "./solution-time.js";
import { argsProblem, describeValue } from "./tool-validation.js";
import {
  type AffordanceMode,
  type AgentSummary,
  type Briefing,
  type Controller,
  type Decision,
  type Envelope,
  type HaltStatus,
  hasEnded,
  NPC_POLICIES,
  type NpcPolicies,
  type NpcPolicy,
  type Observation,
  type Receipt,
  type RunStatus,
  type RunSummary,
  type RunTime,
} from "./types.js";
import type { World } from "./world.js";

export const DEFAULT_DECISION_TIMEOUT_MS = 60_000;
/** A run that has not ended after this much wall time fails, whatever its agents do. */
export const DEFAULT_MAX_WALL_MS = 3_600_000;
/** Events a run keeps in memory for `events(since)` and spectators catching up; older ones are dropped. */
export const DEFAULT_RETAINED_EVENTS = 100_000;
/** What a run's retained records (its kept events and accepted commands) may hold, as JSON characters. */
export const DEFAULT_MAX_RETAINED_BYTES = 64 << 20;
/** Batches processed in one go before yielding to the event loop, so a server stays responsive. */
const BATCHES_PER_SLICE = 2_000;

export interface RunOptions {
  runId: string;
  scenario: ScenarioDefinition;
  seed: number;
  /**
   * Which of a sweep's repeated plays of the same scenario, seed and agents this is (default 0):
   * the world stays the seed's, but the random baseline draws differently on each trial.
   */
  trial?: number;
  /** Agents played by remote clients; their wakes wait for commands (or their deadlines). */
  controlledAgents?: readonly string[];
  /**
   * Who plays the agents that are not remote: one policy for all of them, or one per agent id
   * (unlisted agents get "solution"). See NpcPolicy.
   */
  npcPolicy?: NpcPolicies;
  /** "ready" (default): affordances list what would succeed now; "all": every tool and known target. */
  affordances?: AffordanceMode;
  /** null: as fast as wakes are answered; a number: that many sim ms per wall ms. */
  pace?: number | null;
  /** Wall time a remote agent has to answer a wake before a noop is recorded for it. */
  decisionTimeoutMs?: number;
  clock?: Clock;
  /** Sim ms after which the run fails (default: the scenario's own time limit; the sooner wins). */
  maxSimMs?: number;
  /** Wall ms after start after which the run fails (default one hour). */
  maxWallMs?: number;
  /** Latest events kept in memory (default 100,000; 0 for none, Infinity for all). */
  retainEvents?: number;
  /**
   * The size (JSON characters) the kept events and accepted commands may reach (default 64 MiB);
   * past it the run ends over_budget.
   */
  maxRetainedBytes?: number;
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
  readonly trial: number;
  readonly pace: number | null;
  readonly decisionTimeoutMs: number;
  readonly npcPolicy: NpcPolicies;
  readonly affordanceMode: AffordanceMode;
  readonly maxWallMs: number;
  private readonly sim: Simulation;
  private readonly clock: Clock;
  private readonly log: EventLog;
  private readonly controllers = new Map<string, Controller>();
  private readonly runners = new Map<string, SolutionRunner>();
  private readonly baselines = new Map<string, BaselinePlayer>();
  private readonly scores: ScoreKeeper;
  /** The solution team's time on this seed, measured when the run ends. */
  private solutionTimeMs: number | null = null;
  private readonly briefings = new Map<string, Briefing>();
  private readonly envelopes = new Map<string, Envelope>();
  /** Each agent's latest wake, whoever plays it: what a spectator may ask to read. */
  private readonly latestWakes = new Map<string, PendingWake>();
  private readonly ledger = new CommandLedger();
  private readonly deadlineTimers = new Map<string, () => void>();
  private readonly observationListeners = new Set<(envelope: Envelope) => void>();
  /** Long polls by agent, so an envelope wakes only its own agent's: a round of n polls is n calls, not n². */
  private readonly observationWaiters = new Map<string, Set<(envelope: Envelope) => void>>();
  private readonly wakeListeners = new Set<(envelope: Envelope) => void>();
  private readonly decisionListeners = new Set<
    (event: EventOf<"decision">, resolution: Resolution) => void
  >();
  private readonly endListeners = new Set<(summary: RunSummary) => void>();
  private readonly replay?: RunOptions["replay"];
  private runStatus: RunStatus = "created";
  /** Why the run was halted from outside the simulation ("" unless it was). */
  private haltReason = "";
  private readonly maxRetainedBytes: number;
  private pumping = false;
  private pumpQueued = false;
  private pumpScheduled = false;
  private cancelPaceTimer: (() => void) | undefined;
  /** While the pace timer runs: the wall time it was set at and the sim time it will reach. */
  private paced: { fromWallMs: number; untilMs: number } | undefined;
  private cancelWallLimit: (() => void) | undefined;
  /** The run failed for its wall-time limit: its sim time is no yardstick. */
  private wallLimitPassed = false;
  /** Per agent, the verdicts already logged for its current observation: repeats are not logged again. */
  private readonly verdictsLogged = new Map<string, Set<string>>();
  /** With a pace, the sim time that wall time has caught up with. */
  private paceReached = 0;
  private readonly ended: Promise<RunSummary>;
  private resolveEnded!: (summary: RunSummary) => void;

  constructor(options: RunOptions) {
    const trial = options.trial ?? 0;
    for (const [name, value] of [
      ["seed", options.seed],
      ["trial", trial],
    ] as const) {
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
        throw new RunError(
          "invalid_run_options",
          `${name} must be an integer from 0 to 4294967295 (got ${describeValue(value)})`,
        );
      }
    }
    const pace = options.pace ?? null;
    if (pace !== null && !(Number.isFinite(pace) && pace > 0)) {
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
    const maxWallMs = options.maxWallMs ?? DEFAULT_MAX_WALL_MS;
    const maxSimMs = options.maxSimMs ?? Number.POSITIVE_INFINITY;
    for (const [name, value] of [
      ["maxWallMs", maxWallMs],
      ["maxSimMs", maxSimMs],
    ] as const) {
      if (Number.isNaN(value) || value <= 0) {
        throw new RunError(
          "invalid_run_options",
          `${name} must be a positive number of ms (got ${describeValue(value)})`,
        );
      }
    }
    const known = options.scenario.agents.map((a) => a.id);
    const policyOf = policyLookup(options.npcPolicy ?? "solution", known, options.controlledAgents ?? []);
    const affordanceMode = options.affordances ?? "ready";
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
    this.trial = trial;
    this.pace = pace;
    this.decisionTimeoutMs = timeout;
    this.npcPolicy = options.npcPolicy ?? "solution";
    this.affordanceMode = affordanceMode;
    this.maxWallMs = maxWallMs;
    this.clock = options.clock ?? realClock;
    this.replay = options.replay;
    this.log = new EventLog(options.retainEvents ?? DEFAULT_RETAINED_EVENTS);
    this.maxRetainedBytes = options.maxRetainedBytes ?? DEFAULT_MAX_RETAINED_BYTES;
    this.sim = new Simulation(
      options.scenario,
      options.seed,
      // A remote agent's decision event carries its command's receipt: outside the hash, since
      // command ids are the client's.
      (t, kind, data, resolution) => {
        const event = this.log.append(true, t, kind, data, resolution && this.ledger.settle(resolution));
        if (resolution)
          for (const listener of this.decisionListeners) listener(event as EventOf<"decision">, resolution);
      },
      affordanceMode,
      maxSimMs,
    );
    const remote = new Set(options.controlledAgents ?? []);
    for (const a of options.scenario.agents) {
      const controller: Controller = options.replay
        ? "solution"
        : remote.has(a.id)
          ? "remote"
          : policyOf(a.id);
      this.controllers.set(a.id, controller);
      if (options.replay || controller === "remote") continue;
      if (controller === "solution") this.runners.set(a.id, options.scenario.solution(a.id));
      else {
        const specs = new Map(
          [...this.sim.toolsByAgent.get(a.id)!.values()].map((t) => [t.spec.name, t.spec]),
        );
        this.baselines.set(a.id, baselinePlayer(controller, specs, options.seed, a.id, trial));
      }
    }
    this.scores = new ScoreKeeper(this.agents(), options.scenario.steps);
    this.log.subscribe((event) => this.scores.observe(event));
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
  }

  get status(): RunStatus {
    return this.runStatus;
  }

  get statusReason(): string {
    return this.haltReason !== "" ? this.haltReason : this.sim.statusReason;
  }

  /** The world as it stands, for spectators to draw: read it, never change it. */
  get world(): World {
    return this.sim.world;
  }

  get simTimeMs(): number {
    return this.sim.now;
  }

  /**
   * The run's time as it stands, for a spectator's clock. Between events a paced run's time moves
   * on with wall time toward its next event (`until_ms`), never past it; a run that waits for an
   * agent's answer (`waiting_for`), or is not paced, or has ended, stands still (`until_ms` null).
   */
  timeNow(): RunTime {
    const waitingFor = this.sim.batchSize > 0 ? this.sim.unanswered() : [];
    if (!this.paced || this.pace === null) {
      return { sim_time_ms: this.sim.now, until_ms: null, waiting_for: waitingFor };
    }
    const moved = this.sim.now + (this.clock.now() - this.paced.fromWallMs) * this.pace;
    return {
      sim_time_ms: Math.min(this.paced.untilMs, moved),
      until_ms: this.paced.untilMs,
      waiting_for: waitingFor,
    };
  }

  /** The sim time at which the run fails if it has not ended. */
  get simTimeLimitMs(): number {
    return this.sim.timeLimitMs;
  }

  get isEnded(): boolean {
    return hasEnded(this.runStatus);
  }

  /** The size (JSON characters) of what the run keeps: its retained events and accepted commands. */
  get retainedBytes(): number {
    return this.log.retainedBytes + this.ledger.retainedBytes;
  }

  /** Starts the simulation; wakes for remote agents become available as envelopes. */
  start(): void {
    if (this.runStatus !== "created") return;
    this.runStatus = "running";
    this.log.append(false, 0, "status", { status: "running" });
    if (Number.isFinite(this.maxWallMs)) {
      this.cancelWallLimit = this.clock.setTimer(this.maxWallMs, () => {
        this.wallLimitPassed = true;
        this.sim.end("failed", `the run's wall-time limit of ${this.maxWallMs / 1000} s passed`);
        this.pump();
      });
    }
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
   * A long poll: the agent's outstanding envelope, else the next issued with seq > afterSeq within
   * waitMs on the run's clock (see observation-wait.ts); cancel() gives it up.
   */
  awaitObservation(agentId: string, afterSeq: number, waitMs: number): ObservationWait {
    this.requireAgent(agentId);
    const source: ObservationSource = {
      outstanding: this.envelopes.get(agentId),
      ended: this.isEnded,
      clock: this.clock,
      onObservation: (listener) => this.onObservationOf(agentId, listener),
      onEnd: (listener) => this.onEnd(listener),
    };
    return awaitObservation(source, afterSeq, waitMs);
  }

  /** awaitObservation's envelope, for a caller that never gives up early. */
  nextObservation(agentId: string, afterSeq: number, waitMs: number): Promise<Envelope | undefined> {
    return this.awaitObservation(agentId, afterSeq, waitMs).envelope;
  }

  /**
   * Judges a command from a remote agent and returns its receipt. Throws RunError
   * "unprocessable_command" when command_id or observation_id is not a string (nothing to
   * deduplicate on) or its usage is malformed, "limit_exceeded", "unknown_agent" or "not_remote".
   * An accepted command steps the run on to the next wake; with `stepAfterReceipt` (the server's)
   * that step runs on the event loop's next turn, so the receipt, which settles acceptance only,
   * goes out without waiting for it.
   */
  submit(agentId: string, body: unknown, options: { stepAfterReceipt?: boolean } = {}): Receipt {
    this.requireAgent(agentId);
    if (this.controllers.get(agentId) !== "remote") {
      throw new RunError("not_remote", `${agentId} is not controlled remotely in this run`);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new RunError(
        "unprocessable_command",
        `a command must be a JSON object with command_id, observation_id and one of action, sleep_ms or noop (got ${describeValue(body)})`,
      );
    }
    const command = body as Record<string, unknown>;
    const overLimit = commandLimitProblem(command);
    if (overLimit) throw new RunError("limit_exceeded", overLimit);
    for (const field of ["command_id", "observation_id"] as const) {
      if (typeof command[field] !== "string") {
        throw new RunError(
          "unprocessable_command",
          `${field} must be a string (got ${describeValue(command[field])})`,
        );
      }
    }
    if (command.command_id === "") {
      throw new RunError(
        "unprocessable_command",
        "command_id must not be empty: mint one per command (a UUID, say) and reuse it only to retry that command",
      );
    }
    const usage = usageOf(command);
    const commandId = command.command_id as string;
    const observationId = command.observation_id as string;
    const { receipt, decision } = this.ledger.judge(
      agentId,
      commandId,
      observationId,
      command,
      {
        tools: this.sim.toolsByAgent.get(agentId)!,
        outstanding: this.envelopes.get(agentId)?.observation_id,
        runStatus: this.runStatus,
      },
      usage,
    );
    if (decision) {
      this.closeEnvelope(agentId);
      this.sim.answer(agentId, decision);
    }
    if (receipt.status !== "accepted") this.logVerdict(agentId, commandId, observationId, receipt);
    else if (options.stepAfterReceipt) this.pumpSoon();
    else this.pump();
    this.haltIfOverBudget();
    return receipt;
  }

  /**
   * A verdict's event, for commands that were not accepted (an accepted one is logged when it takes
   * effect: its decision event carries the receipt). Each status is logged once per observation of
   * the agent: a client repeating a rejected command thousands of times adds one event.
   */
  private logVerdict(agentId: string, commandId: string, observationId: string, receipt: Receipt): void {
    let logged = this.verdictsLogged.get(agentId);
    if (!logged) {
      logged = new Set();
      this.verdictsLogged.set(agentId, logged);
    }
    if (logged.has(receipt.status)) return;
    logged.add(receipt.status);
    this.log.append(false, this.sim.now, "verdict", {
      agent: agentId,
      command_id: commandId,
      observation_id: observationId,
      status: receipt.status,
      detail: receipt.detail,
    });
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
      scores: this.scores.scores(this.sim.now, this.sim.world.objectiveViews(), this.solutionTimeMs),
    };
  }

  /** Events after `cursor` (0 for all), at most `limit`. */
  events(since = 0, limit?: number): RunEvent[] {
    return this.log.since(since, limit);
  }

  get eventCursor(): number {
    return this.log.latest;
  }

  /** The cursor of the oldest event still kept in memory (older ones were dropped). */
  get oldestRetainedEvent(): number {
    return this.log.oldestRetained;
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

  private onObservationOf(agentId: string, listener: (envelope: Envelope) => void): () => void {
    let waiters = this.observationWaiters.get(agentId);
    if (!waiters) {
      waiters = new Set();
      this.observationWaiters.set(agentId, waiters);
    }
    waiters.add(listener);
    return () => waiters.delete(listener);
  }

  /**
   * Called for every wake, whoever plays the agent, with the envelope a remote player gets (its
   * text rendered with its affordances): for agents played in this process it is built only while
   * someone listens. A trajectory records what each agent saw this way.
   */
  onWake(listener: (envelope: Envelope) => void): () => void {
    this.wakeListeners.add(listener);
    return () => this.wakeListeners.delete(listener);
  }

  /**
   * Called for every decision as its batch resolves, after its event is logged: the event (with a
   * remote command's receipt) and how it resolved, accepted or rejected with the reason, for
   * every agent (a runner's decision has no receipt to say it).
   */
  onDecision(listener: (event: EventOf<"decision">, resolution: Resolution) => void): () => void {
    this.decisionListeners.add(listener);
    return () => this.decisionListeners.delete(listener);
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

  /** Stops a run that is still going (its player gave up, a test is done): it ends as crashed, never a stale running. */
  dispose(reason = "the run was stopped before it ended"): void {
    this.halt("crashed", reason);
  }

  /**
   * Ends a run that is still going from outside its simulation, with the status and reason given
   * (a server's: abandoned, deleted). Its final frame is a status event with the reason.
   */
  halt(status: HaltStatus, reason: string): void {
    if (this.isEnded) return;
    this.runStatus = status;
    this.haltReason = reason;
    this.log.append(false, this.sim.now, "status", { status, reason });
    this.close();
  }

  /** Past its byte budget a run ends over_budget, so one run's commands cannot fill its server. */
  private haltIfOverBudget(): void {
    const bytes = this.retainedBytes;
    if (bytes <= this.maxRetainedBytes || this.isEnded) return;
    this.halt(
      "over_budget",
      `the run's kept events and commands reached ${bytes} characters, over its budget of ${this.maxRetainedBytes}`,
    );
  }

  /** Ends a run that is still going because its server stops: it ends as interrupted. */
  interrupt(reason: string): void {
    this.halt("interrupted", reason);
  }

  /** One pump on the event loop's next turn, however many commands ask for it meanwhile. */
  private pumpSoon(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
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
      this.halt("crashed", error instanceof Error ? `${error.message}` : String(error));
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
        this.sim.resolve();
        continue;
      }
      const next = this.sim.nextTime();
      if (this.pace !== null && next !== undefined && next > this.paceReached) {
        if (this.cancelPaceTimer) return;
        this.paced = { fromWallMs: this.clock.now(), untilMs: next };
        this.cancelPaceTimer = this.clock.setTimer((next - this.sim.now) / this.pace, () => {
          this.cancelPaceTimer = undefined;
          this.paced = undefined;
          this.paceReached = next;
          this.pump();
        });
        return;
      }
      const batch = this.sim.step();
      for (const wake of batch) this.dispatch(wake);
      this.haltIfOverBudget();
      if (this.isEnded) return;
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
    if (this.controllers.get(wake.agentId) !== "remote") {
      if (this.wakeListeners.size > 0) {
        const envelope = this.envelopeFor(wake);
        for (const listener of this.wakeListeners) listener(envelope);
      }
      const { decision, expired } = this.localAnswer(wake);
      this.sim.answer(wake.agentId, this.checked(wake.agentId, decision), expired);
      return;
    }
    const envelope = this.envelopeFor(wake);
    for (const listener of this.wakeListeners) listener(envelope);
    this.envelopes.set(wake.agentId, envelope);
    this.verdictsLogged.delete(wake.agentId);
    this.ledger.issue(wake.observationId);
    this.deadlineTimers.set(
      wake.agentId,
      this.clock.setTimer(this.decisionTimeoutMs, () => this.expire(wake.agentId, wake.observationId)),
    );
    for (const listener of this.observationListeners) listener(envelope);
    const waiters = this.observationWaiters.get(wake.agentId);
    if (waiters) for (const waiter of waiters) waiter(envelope);
  }

  /** The answer of whoever plays the agent in this process: a replayed log, its runner or its baseline. */
  private localAnswer(wake: PendingWake): { decision: Decision; expired?: boolean } {
    if (this.replay) {
      const recorded = this.replay.get(wake.observationId);
      if (!recorded)
        throw new Error(`the replayed log has no decision for ${wake.observationId}; the run diverged`);
      return recorded;
    }
    const runner = this.runners.get(wake.agentId);
    if (runner) return { decision: runner.decide(wake.observation) };
    const baseline = this.baselines.get(wake.agentId)!;
    return { decision: baseline.decide(wake.observation, () => this.sim.affordances(wake.agentId)) };
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

  private close(): void {
    this.cancelWallLimit?.();
    this.cancelPaceTimer?.();
    this.cancelPaceTimer = undefined;
    this.paced = undefined;
    for (const cancel of this.deadlineTimers.values()) cancel();
    this.deadlineTimers.clear();
    this.ledger.close();
    this.envelopes.clear();
    const halted = this.haltReason !== "";
    if (!halted) this.solutionTimeMs = this.measuredSolutionTime();
    const summary = this.summary();
    if (!halted) {
      // The spectator's final frame carries the scores, so a viewer needs no second request.
      this.log.append(false, this.sim.now, "status", {
        status: this.runStatus,
        reason: this.statusReason,
        scores: summary.scores,
      });
      summary.event_cursor = this.log.latest;
    }
    for (const listener of this.endListeners) listener(summary);
    this.endListeners.clear();
    this.resolveEnded(summary);
  }

  /**
   * The solution team's time on this seed. A run in which every agent played its solution runner,
   * under the scenario's own limits, is that team's run: its own time is the yardstick, and the
   * scenario is not simulated a second time.
   */
  private measuredSolutionTime(): number | null {
    const ownRun =
      !this.replay &&
      !this.wallLimitPassed &&
      this.affordanceMode === "ready" &&
      this.sim.timeLimitMs === this.scenario.timeLimitMs &&
      [...this.controllers.values()].every((c) => c === "solution");
    if (!ownRun) return solutionSimTime(this.scenario, this.seed);
    const time = this.sim.status === "completed" ? this.sim.now : null;
    rememberSolutionSimTime(this.scenario, this.seed, time);
    return time;
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
    if (e.kind !== "decision") continue;
    out.set(e.data.observation_id, { decision: decisionOf(e.data), expired: e.data.expired === true });
  }
  return out;
}

export { decisionFields, decisionOf };

/** Checks npc_policy against the scenario's agents and returns each agent's policy. */
function policyLookup(
  policies: NpcPolicies,
  known: readonly string[],
  remote: readonly string[],
): (agentId: string) => NpcPolicy {
  const valid = (p: unknown): p is NpcPolicy => NPC_POLICIES.includes(p as NpcPolicy);
  const allowed = NPC_POLICIES.map((p) => `"${p}"`).join(", ");
  if (typeof policies === "string") {
    if (!valid(policies))
      throw new RunError(
        "invalid_run_options",
        `npc_policy must be one of ${allowed}, or an object of them by agent (got ${describeValue(policies)})`,
      );
    return () => policies;
  }
  for (const [agentId, policy] of Object.entries(policies)) {
    if (!known.includes(agentId))
      throw new RunError(
        "unknown_agent",
        `npc_policy names "${agentId}", which is not an agent here; its agents are ${known.join(", ")}`,
      );
    if (remote.includes(agentId))
      throw new RunError("invalid_run_options", `npc_policy names ${agentId}, which is controlled remotely`);
    if (!valid(policy))
      throw new RunError(
        "invalid_run_options",
        `npc_policy.${agentId} must be one of ${allowed} (got ${describeValue(policy)})`,
      );
  }
  return (agentId) => policies[agentId] ?? "solution";
}
