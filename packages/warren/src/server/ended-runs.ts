import type { EndedStatus, RunView } from "../protocol/index.js";
import type { HostedRun } from "./hosted-run.js";
import { HttpError } from "./http-error.js";

export interface EndedRunLimits {
  /** Ended runs remembered at all; past this the oldest are forgotten (404). */
  maxRuns: number;
  /** Events the ended runs kept whole may hold together; past this the oldest are let go to their summary. */
  maxEvents: number;
  /** What they may hold together in bytes (their runs' retained size as JSON), beside the events. */
  maxBytes: number;
  /** Called for each run forgotten, so a store forgets it too. */
  onForget?: (runId: string) => void;
}

/**
 * What a server keeps of its ended runs, so that their memory is bounded overall, not only per
 * run. The most recent stay whole (events, commands and receipts: a spectator or the viewer can
 * replay them) while together they hold at most `maxEvents` events and `maxBytes` bytes; the latest ended run always
 * stays whole. Older ones are let go to their final summary: GET still shows it, every other
 * route answers 410. Past `maxRuns` ended runs the oldest are forgotten: 404.
 */
export class EndedRuns {
  /** Ended run ids, oldest first. */
  private readonly order: string[] = [];
  private readonly whole = new Map<string, { hosted: HostedRun; events: number; bytes: number }>();
  private readonly summaries = new Map<string, RunView>();
  private wholeEvents = 0;
  private wholeBytes = 0;
  /** Runs read back from the store at the start: they ended before this server did. */
  private readonly restored = new Set<string>();

  constructor(private readonly limits: EndedRunLimits) {}

  add(hosted: HostedRun): void {
    const { run } = hosted;
    const events = run.eventCursor - run.oldestRetainedEvent + 1;
    const bytes = run.retainedBytes;
    this.order.push(run.id);
    this.whole.set(run.id, { hosted, events, bytes });
    this.wholeEvents += events;
    this.wholeBytes += bytes;
    for (const id of this.order) {
      const within = this.wholeEvents <= this.limits.maxEvents && this.wholeBytes <= this.limits.maxBytes;
      if (within || id === run.id) break;
      this.letGo(id);
    }
    while (this.order.length > this.limits.maxRuns) this.forget(this.order.shift()!);
  }

  /** A run that ended under an earlier server, as its store kept it (oldest first). */
  restore(view: RunView): void {
    this.order.push(view.run_id);
    this.summaries.set(view.run_id, view);
    this.restored.add(view.run_id);
    while (this.order.length > this.limits.maxRuns) this.forget(this.order.shift()!);
  }

  /** The run if it is kept whole; a 410 if only its summary is left; undefined if it is unknown. */
  find(runId: string): HostedRun | undefined {
    const kept = this.whole.get(runId);
    if (kept) return kept.hosted;
    const summary = this.summaries.get(runId);
    if (!summary) return undefined;
    if (summary.status === "deleted") {
      throw new HttpError(
        "run_ended",
        `run ${runId} was deleted (${summary.status_reason}); only its summary is kept (GET /v1/runs/${runId})`,
        { status: "deleted" },
      );
    }
    if (this.restored.has(runId)) throw restoredRunError(summary);
    throw new HttpError(
      "run_ended",
      `run ${runId} has ended: ${summary.status} (${summary.status_reason}); only its summary is kept now (GET /v1/runs/${runId}): its events and commands were let go, as this server keeps them for its latest ended runs up to ${this.limits.maxEvents} events and ${this.limits.maxBytes} bytes in all`,
      { status: summary.status as EndedStatus },
    );
  }

  view(runId: string): RunView | undefined {
    return this.whole.get(runId)?.hosted.view() ?? this.summaries.get(runId);
  }

  views(): RunView[] {
    return this.order.map((id) => this.view(id)!);
  }

  /** The detail of a 404 for a run this server ended and forgot. */
  forgottenDetail(runId: string): string {
    return `run ${runId} ended long ago and is forgotten: this server remembers its latest ${this.limits.maxRuns} ended runs`;
  }

  /** Whether only the run's summary is held here (its events, if anywhere, are on disk). */
  isSummary(runId: string): boolean {
    return this.summaries.has(runId);
  }

  /** Events held by the ended runs kept whole. */
  get heldEvents(): number {
    return this.wholeEvents;
  }

  /** Keeps only the ended run's summary, its events and commands let go. */
  letGo(runId: string): void {
    const kept = this.whole.get(runId);
    if (!kept) return;
    this.summaries.set(runId, kept.hosted.view());
    this.whole.delete(runId);
    this.wholeEvents -= kept.events;
    this.wholeBytes -= kept.bytes;
  }

  private forget(runId: string): void {
    this.letGo(runId);
    this.summaries.delete(runId);
    this.restored.delete(runId);
    this.limits.onForget?.(runId);
  }
}

/** The 410 for a run from before the server's restart: its leases are void, its log can be read. */
function restoredRunError(view: RunView): HttpError {
  const { run_id: runId, status, status_reason: reason } = view;
  const readable = `its events can still be watched (GET /v1/runs/${runId}/spectate) and replayed (/runs/${runId})`;
  if (status === "interrupted") {
    return new HttpError(
      "run_interrupted",
      `run ${runId} was interrupted: ${reason}. Its leases ended with it: create a new run to play on; ${readable}`,
      { status },
    );
  }
  return new HttpError(
    "run_ended",
    `run ${runId} has ended: ${status} (${reason}), before the server restarted; no lease from then is valid, and ${readable}`,
    { status: status as EndedStatus },
  );
}
