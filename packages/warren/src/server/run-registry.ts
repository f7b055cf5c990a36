import { type Clock, Run, RunError, realClock } from "../engine/index.js";
import type { CreateRunRequest, RunView } from "../protocol/index.js";
import { abandonIfUnclaimed } from "./abandonment.js";
import { EndedRuns } from "./ended-runs.js";
import { HostedRun } from "./hosted-run.js";
import { HttpError, httpErrorOf } from "./http-error.js";
import type { RunStore } from "./run-store.js";
import type { ScenarioCatalog } from "./scenario-catalog.js";
import { type RunLog, StoredRun } from "./stored-run.js";

export interface RegistryOptions {
  catalog: ScenarioCatalog;
  leaseTtlMs: number;
  /** Runs not yet ended (created or running) at once; more are refused with 503. */
  maxLiveRuns: number;
  /** Ended runs remembered; past this the oldest are forgotten (404). */
  keepEndedRuns: number;
  /** Events the ended runs kept whole hold together; past this the oldest keep only their summary (410). */
  endedRunEvents: number;
  /** Bytes the ended runs kept whole hold together; past this the oldest keep only their summary (410). */
  endedRunBytes: number;
  clock?: Clock;
  retainedEvents?: number;
  /** The byte budget of each run's kept events and commands; past it the run ends over_budget. */
  maxRunBytes?: number;
  /** Wall seconds a created run waits to be claimed unless its request says (then abandoned). */
  claimWithinS: number;
  /** Where runs are kept so they outlive the server; without one they live in memory only. */
  store?: RunStore;
}

/** Every run this server hosts, by id: those not yet ended, and what it keeps of the ended ones. */
export class RunRegistry {
  /** Runs not yet ended. */
  private readonly runs = new Map<string, HostedRun>();
  readonly ended: EndedRuns;
  private nextId = 1;

  constructor(private readonly options: RegistryOptions) {
    const { store } = options;
    this.ended = new EndedRuns({
      maxRuns: options.keepEndedRuns,
      maxEvents: options.endedRunEvents,
      maxBytes: options.endedRunBytes,
      onForget: store && ((runId) => store.forget(runId)),
    });
    if (store) {
      for (const view of store.restored) this.ended.restore(view);
      this.nextId = store.nextRunNumber;
    }
  }

  create(scenarioName: string, seed: number, request: CreateRunRequest): HostedRun {
    const scenario = this.options.catalog.find(scenarioName);
    if (!scenario) {
      const names = this.options.catalog.list().map((s) => s.name);
      throw new HttpError(
        "unknown_scenario",
        `there is no scenario "${scenarioName}"; scenarios: ${names.join(", ")}`,
      );
    }
    const live = this.runs.size;
    if (live >= this.options.maxLiveRuns) {
      throw new HttpError(
        "too_many_runs",
        `this server already hosts ${live} runs that have not ended (at most ${this.options.maxLiveRuns}); try again when one ends`,
      );
    }
    const controlled = request.controlled_agents ?? [];
    const npcPolicy = request.npc_policy ?? "solution";
    const clock = this.options.clock ?? realClock;
    let run: Run;
    const number = this.options.store?.reserveRunNumber() ?? this.nextId;
    this.nextId = number + 1;
    try {
      run = new Run({
        runId: `run-${number}`,
        scenario,
        seed,
        trial: request.trial,
        controlledAgents: controlled,
        npcPolicy,
        affordances: request.affordances,
        pace: request.pace ?? null,
        decisionTimeoutMs: request.deadline_s === undefined ? undefined : request.deadline_s * 1000,
        maxSimMs: request.max_sim_s === undefined ? undefined : request.max_sim_s * 1000,
        maxWallMs: request.max_wall_s === undefined ? undefined : request.max_wall_s * 1000,
        clock,
        retainEvents: this.options.retainedEvents,
        maxRetainedBytes: this.options.maxRunBytes,
      });
    } catch (error) {
      if (error instanceof RunError) throw httpErrorOf(error, "body");
      throw error;
    }
    const claimWithinS = request.claim_within_s ?? this.options.claimWithinS;
    const hosted = new HostedRun(
      run,
      npcPolicy,
      controlled,
      clock.now() / 1000,
      claimWithinS,
      this.options.leaseTtlMs,
      () => clock.now(),
    );
    this.runs.set(run.id, hosted);
    run.onEnd(() => {
      this.runs.delete(run.id);
      this.ended.add(hosted);
    });
    this.options.store?.track(hosted, request);
    hosted.startIfReady();
    abandonIfUnclaimed(hosted, claimWithinS * 1000, clock);
    return hosted;
  }

  /** The run, or 404 if there is none (or it is forgotten), or 410 if only its summary is left. */
  get(runId: string): HostedRun {
    const hosted = this.runs.get(runId) ?? this.ended.find(runId);
    if (!hosted) throw this.unknown(runId);
    return hosted;
  }

  /**
   * The run's log for spectators and the viewer: the run itself while the server holds it whole,
   * else its stored record (an ended run let go from memory, or one from before a restart).
   */
  log(runId: string): RunLog {
    const { store } = this.options;
    if (store && this.ended.isSummary(runId)) {
      const view = this.ended.view(runId)!;
      const scenario = this.options.catalog.find(view.scenario);
      if (scenario) return new StoredRun(store, view, scenario);
    }
    return this.get(runId).run;
  }

  /** A claim or release changed the run's view: the store writes it with its next batch. */
  noteLeaseChange(runId: string): void {
    this.options.store?.touch(runId);
  }

  /** What GET /v1/runs/{run} shows, even of an ended run kept only as its summary. */
  view(runId: string): RunView {
    const view = this.runs.get(runId)?.view() ?? this.ended.view(runId);
    if (!view) throw this.unknown(runId);
    return view;
  }

  /** Every run it knows, oldest first. */
  views(): RunView[] {
    const views = [...this.ended.views(), ...[...this.runs.values()].map((h) => h.view())];
    return views.sort((a, b) => runNumber(a.run_id) - runNumber(b.run_id));
  }

  private unknown(runId: string): HttpError {
    const n = runNumber(runId);
    const detail =
      n >= 1 && n < this.nextId
        ? this.ended.forgottenDetail(runId)
        : `there is no run "${runId}"; GET /v1/runs lists them`;
    return new HttpError("unknown_run", detail);
  }

  /** Ends every run still going (as interrupted, never a stale running): the server is stopping. */
  disposeAll(): void {
    const when = new Date((this.options.clock ?? realClock).now()).toISOString();
    for (const hosted of [...this.runs.values()])
      hosted.run.interrupt(`the server stopped at ${when} before the run ended`);
  }
}

/** N of a run id `run-N` this server made; NaN for anything else. */
function runNumber(runId: string): number {
  return /^run-[1-9]\d*$/.test(runId) ? Number(runId.slice(4)) : Number.NaN;
}
