import type { StatePaths } from "../../home/paths.js";
import { type JobAuth, nameKey, RoostError, roostErrors } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { ProcessHost } from "../host/api.js";
import type { Store } from "../store/store.js";
import { type Job, jobRecord } from "./job.js";
import { toRow } from "./job-row.js";
import { JobTable } from "./job-table.js";
import { tokenMatches } from "./job-token.js";
import { RequestsInFlight } from "./requests-in-flight.js";

/** How long row changes gather before subscribers hear of them. */
const ROW_EVENT_DEBOUNCE_MS = 25;
/** How long report writes gather before one transaction keeps them all. */
const REPORT_WRITE_DELAY_MS = 50;

/** Hears of every change to a job and every removal (the task board releases what an ended job claimed). */
export interface JobWatcher {
  changed(job: Job): void;
  removed(id: string): void;
}

/** Everything the ops work on: the jobs, the store, the process host and who listens. */
export class DaemonState {
  readonly jobs = new JobTable();
  readonly callers = new Set<Caller>();
  readonly jobWatchers: JobWatcher[] = [];
  /** Requests with a request id still under way: a concurrent resend waits for the first's answer. */
  readonly requestsInFlight = new RequestsInFlight();
  /**
   * Set while an op of the concierge's runs with `act` off: an item it delivers to an ended job
   * is queued for it, and the job is not started.
   */
  wakesRefused = false;
  private currentHost: ProcessHost | null = null;
  private hostWaiters: ((host: ProcessHost) => void)[] = [];
  /**
   * Asks the daemon to exit; `all` ends the jobs and the host too. Resolves once the jobs are let go
   * of (or ended); the connections close just after.
   */
  requestShutdown: (all: boolean) => Promise<void> = async () => {};
  private readonly dirty = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly unsaved = new Set<Job>();
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly paths: StatePaths,
    readonly store: Store,
    /** Where a watcher's fault is told (the daemon's log). */
    readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** Tells every watcher: one that throws is logged and the others still hear of it. */
  private tellWatchers(tell: (watcher: JobWatcher) => void, what: string): void {
    for (const watcher of this.jobWatchers) {
      try {
        tell(watcher);
      } catch (err) {
        this.log(`roost: a job watcher failed on ${what}: ${(err as Error)?.stack ?? err}`);
      }
    }
  }

  now(): string {
    return new Date().toISOString();
  }

  /**
   * Writes the job through to the store and tells subscribers its row changed (and again when an
   * op's write of it failed and its change was set back). Resolves once committed: an op that acts
   * on a process (a stop, a respawn) saves the job first, so a store that cannot write stops it
   * before anything is done that memory could not take back.
   */
  save(job: Job): Promise<void> {
    job.updatedAt = this.now();
    this.unsaved.delete(job);
    const kept = this.store.saveJob(jobRecord(job), () => this.changed(job));
    this.changed(job);
    return kept;
  }

  /**
   * Like `save`, but the write joins others in one transaction a moment later: for reports, which
   * come often and which an agent sends again after any reconnect (a reply is never saved so).
   */
  saveSoon(job: Job): void {
    job.updatedAt = this.now();
    this.unsaved.add(job);
    this.changed(job);
    if (this.saveTimer === null) this.saveTimer = setTimeout(() => this.flushSaves(), REPORT_WRITE_DELAY_MS);
  }

  flushSaves(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const jobs = [...this.unsaved].filter((j) => this.jobs.get(j.id) === j);
    this.unsaved.clear();
    if (jobs.length) this.store.saveJobs(jobs.map(jobRecord));
  }

  /** Tells subscribers the row changed (what changed lives in memory only, like `connected`). */
  changed(job: Job): void {
    this.jobs.noteChange(job);
    this.tellWatchers((watcher) => watcher.changed(job), `job ${job.id}'s change`);
    this.dirty.add(job.id);
    if (this.flushTimer === null) this.flushTimer = setTimeout(() => this.flush(), ROW_EVENT_DEBOUNCE_MS);
  }

  removed(id: string): void {
    this.tellWatchers((watcher) => watcher.removed(id), `job ${id}'s removal`);
    this.dirty.delete(id);
    for (const c of this.callers) if (c.subscribed) c.send({ event: "row-removed", id });
  }

  private flush(): void {
    this.flushTimer = null;
    const listeners = [...this.callers].filter((c) => c.subscribed);
    if (listeners.length === 0) {
      this.dirty.clear();
      return;
    }
    const rows = [...this.dirty].flatMap((id) => {
      const job = this.jobs.get(id);
      return job ? [toRow(job)] : [];
    });
    this.dirty.clear();
    const events = rows.map((row) => ({ event: "row", row }) as const);
    for (const c of listeners) c.sendEach(events);
  }

  get host(): ProcessHost | null {
    return this.currentHost;
  }

  set host(host: ProcessHost | null) {
    this.currentHost = host;
    if (host) for (const wake of this.hostWaiters.splice(0)) wake(host);
  }

  /** The process host, answering: `busy` while it is not connected or does not answer. */
  requireHost(): ProcessHost {
    if (!this.currentHost) throw roostErrors.hostNotConnected();
    if (!this.currentHost.responsive)
      throw new RoostError(
        "busy",
        `the process host (pid ${this.currentHost.hostPid}) does not answer; try again shortly`,
      );
    return this.currentHost;
  }

  /**
   * The process host, waiting a while for it (the daemon connects to it just after it listens);
   * one that is connected but does not answer is `busy` at once.
   */
  waitForHost(timeoutMs = 15_000): Promise<ProcessHost> {
    if (this.currentHost) return Promise.resolve().then(() => this.requireHost());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.hostWaiters.splice(this.hostWaiters.indexOf(wake), 1);
        reject(roostErrors.hostNotConnected());
      }, timeoutMs);
      const wake = (host: ProcessHost) => {
        clearTimeout(timer);
        resolve(host);
      };
      this.hostWaiters.push(wake);
    });
  }

  /** A job by id, or by a name only one job has. */
  resolve(idOrName: unknown): Job {
    if (typeof idOrName !== "string" || idOrName === "")
      throw new RoostError("bad_request", "id must be a job id or name");
    const byId = this.jobs.get(idOrName);
    if (byId) return byId;
    // Names are compared folded: `Deploy` and `deploy` are one name, and pick one job only.
    const key = nameKey(idOrName);
    const named = [...this.jobs.values()].filter((j) => nameKey(j.name) === key);
    if (named.length === 1) return named[0]!;
    if (named.length > 1)
      throw new RoostError(
        "bad_request",
        `${named.length} jobs are named ${JSON.stringify(idOrName)} (${named.map((j) => j.id).join(", ")}); use an id`,
      );
    throw roostErrors.noJob(idOrName);
  }

  /** The job an op named, as it stands after an await: one removed meanwhile is `not_found`. */
  current(job: Job): Job {
    if (this.jobs.get(job.id) !== job) throw roostErrors.jobRemoved(job.id);
    return job;
  }

  /** The job a request speaks for, checked against its token. */
  authorize({ id, token }: JobAuth): Job {
    const job = this.jobs.get(id);
    if (!job) throw roostErrors.noJob(id);
    if (!tokenMatches(job.tokenHash, token))
      throw new RoostError("unauthorized", `wrong token for job ${id}`);
    return job;
  }

  /** Rows in the order the user keeps: pinned first, then by `order`. */
  rows() {
    return [...this.jobs.values()]
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || a.order - b.order)
      .map(toRow);
  }
}
