import {
  foldName,
  RoostError,
  refuseReservedName,
  SCHEDULE_LIMITS,
  type Schedule,
  type ScheduleLaunch,
  type SchedulesResult,
} from "../../protocol/index.js";
import type { EventsFeed } from "../feed/events-feed.js";
import { RecordTable } from "../store/record-table.js";
import type { Store } from "../store/store.js";
import type { Clock } from "./clock.js";
import { localIso, localTimeZone } from "./local-time.js";
import { parseWhen, type When } from "./when.js";

/** What the store keeps of a schedule. Times are epoch milliseconds. */
interface ScheduleRecord
  extends Pick<
    Schedule,
    "id" | "name" | "when" | "launch" | "paused" | "overlap" | "lastJob" | "runs" | "skips"
  > {
  createdAt: number;
  /** `every` counts from here. */
  anchor: number;
  /** Due times at or before this are not run (made, or resumed, then). */
  since: number;
  lastDue: number | null;
  /** A run whose dispatch was asked for and not yet seen through: done again at start (same id). */
  inFlightDue: number | null;
}

interface SchedulerDeps {
  clock: Clock;
  feed: EventsFeed;
  /** Starts a job; the request id makes a resend of the same run come back with the same job. */
  dispatch(launch: ScheduleLaunch, requestId: string): Promise<{ id: string; name: string }>;
  /** Whether a job still runs (a run of a schedule without overlap skips while its last one does). */
  isRunning(jobId: string): boolean;
}

/** A run's request id: the schedule and its due time, so that it is taken once whatever happens. */
function runRequestId(id: number, due: number, manual = false): string {
  return `schedule:${id}:${manual ? "now:" : ""}${new Date(due).toISOString()}`;
}

/**
 * Schedules (M46's vocabulary) that dispatch jobs at their due times, read in the daemon's local
 * time zone. Runs missed while the daemon was down: at most one catch-up run at start, for the
 * latest missed due time; the ones before it are not run. A run whose schedule's previous job
 * still runs is skipped (a `schedule` event says so) unless the schedule allows overlap.
 */
export class Scheduler {
  private readonly records: Map<number, ScheduleRecord>;
  private readonly whens = new Map<number, When>();
  private readonly running = new Set<number>();
  private readonly table: RecordTable<ScheduleRecord>;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;

  constructor(
    store: Store,
    private readonly deps: SchedulerDeps,
  ) {
    // A change an op could not keep is set back: its clock with it.
    this.table = new RecordTable(store, "schedules", (id, record) => {
      if (record) this.whens.set(id, parseWhen(record.when, record.anchor));
      else this.whens.delete(id);
      this.reschedule();
    });
    this.records = this.table.records;
    for (const record of this.records.values())
      this.whens.set(record.id, parseWhen(record.when, record.anchor));
  }

  private get now(): number {
    return this.deps.clock.now();
  }

  /** Sees through the runs a stop left half done, then runs what is due and keeps watching. */
  start(): void {
    this.stopped = false;
    for (const record of this.records.values()) {
      if (record.inFlightDue !== null) void this.fire(record, record.inFlightDue);
    }
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private save(record: ScheduleRecord): void {
    this.table.put(record);
  }

  get(id: number): ScheduleRecord {
    const record = this.records.get(id);
    if (!record) throw new RoostError("not_found", `no schedule ${id}`);
    return record;
  }

  private nextDue(record: ScheduleRecord): number | null {
    if (record.paused) return null;
    const base = Math.max(record.since, record.lastDue ?? record.since);
    return this.whens.get(record.id)!.next(base);
  }

  shown(record: ScheduleRecord): Schedule {
    const next = this.nextDue(record);
    return {
      id: record.id,
      name: record.name,
      when: record.when,
      launch: record.launch,
      paused: record.paused,
      overlap: record.overlap,
      createdAt: localIso(record.createdAt),
      nextAt: next === null ? null : localIso(next),
      timeZone: localTimeZone(),
      lastDueAt: record.lastDue === null ? null : localIso(record.lastDue),
      lastJob: record.lastJob,
      runs: record.runs,
      skips: record.skips,
    };
  }

  list(): SchedulesResult {
    return {
      schedules: [...this.records.values()].map((r) => this.shown(r)),
      timeZone: localTimeZone(),
      now: localIso(this.now),
    };
  }

  add(when: unknown, launch: ScheduleLaunch, name: string | undefined, overlap: boolean): Schedule {
    if (this.records.size >= SCHEDULE_LIMITS.schedules)
      throw new RoostError("full", `there are ${SCHEDULE_LIMITS.schedules} schedules already`);
    const now = this.now;
    const parsed = parseWhen(when, now);
    const id = this.table.newId();
    const scheduleName =
      (name !== undefined && foldName(name, SCHEDULE_LIMITS.name)) || `${launch.profile}-${id}`;
    // Its jobs take this name: one the concierge's would refuse every run, so it is refused now.
    refuseReservedName(launch.name ?? scheduleName, launch.name ? "launch.name" : "name");
    const record: ScheduleRecord = {
      id,
      name: scheduleName,
      when: (when as string).trim(),
      // Its jobs are named like it, unless it names them.
      launch: { ...launch, name: launch.name ?? scheduleName },
      paused: false,
      overlap,
      createdAt: now,
      anchor: now,
      since: now,
      lastDue: null,
      inFlightDue: null,
      lastJob: null,
      runs: 0,
      skips: 0,
    };
    this.records.set(id, record);
    this.whens.set(id, parsed);
    this.save(record);
    this.reschedule();
    return this.shown(record);
  }

  remove(id: number): void {
    this.get(id);
    this.records.delete(id);
    this.whens.delete(id);
    this.table.remove(id);
    this.reschedule();
  }

  /** Paused, it runs no more; resumed, it runs from its next due time after now (none missed). */
  setPaused(id: number, paused: boolean): Schedule {
    const record = this.get(id);
    if (record.paused !== paused) {
      record.paused = paused;
      if (!paused) record.since = this.now;
      this.save(record);
      this.reschedule();
    }
    return this.shown(record);
  }

  /** Runs it now, paused or not, whatever its last job does. */
  async runNow(id: number): Promise<{ id: string; name: string }> {
    const record = this.get(id);
    const at = this.now;
    const job = await this.deps.dispatch(record.launch, runRequestId(id, at, true));
    record.runs++;
    record.lastJob = job;
    this.save(record);
    this.note(record, "run", `${record.name}: started ${job.name} (${job.id}), run by hand`, at, [job.id]);
    return job;
  }

  private note(record: ScheduleRecord, why: string, text: string, at: number, jobs: string[]): void {
    this.deps.feed.add({
      kind: "schedule",
      why,
      text,
      who: "roost",
      whoId: null,
      jobs,
      scheduleId: record.id,
      at: new Date(at).toISOString(),
    });
  }

  private reschedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const now = this.now;
    let wait = this.deps.clock.pollMs;
    for (const record of this.records.values()) {
      // One being run is looked at again when its run is through.
      if (this.running.has(record.id)) continue;
      const due = this.nextDue(record);
      if (due !== null) wait = Math.min(wait, Math.max(0, due - now));
    }
    this.timer = setTimeout(() => this.tick(), wait);
    this.timer.unref();
  }

  /** Runs each schedule whose due time has come: once, for the latest due time passed. */
  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    const now = this.now;
    for (const record of this.records.values()) {
      if (this.running.has(record.id)) continue;
      const first = this.nextDue(record);
      if (first === null || first > now) continue;
      const latest = this.whens.get(record.id)!.latest(now);
      void this.fire(record, Math.max(first, latest ?? first));
    }
    this.reschedule();
  }

  private async fire(record: ScheduleRecord, due: number): Promise<void> {
    if (this.running.has(record.id)) return;
    this.running.add(record.id);
    const late = this.now - due > 60_000 ? ` (late: due ${localIso(due)})` : "";
    try {
      const last = record.lastJob;
      if (!record.overlap && last && this.deps.isRunning(last.id)) {
        record.lastDue = due;
        record.inFlightDue = null;
        record.skips++;
        this.save(record);
        this.note(record, "skip", `${record.name}: skipped, ${last.name} (${last.id}) still runs`, due, [
          last.id,
        ]);
        return;
      }
      record.inFlightDue = due;
      this.save(record);
      try {
        const job = await this.deps.dispatch(record.launch, runRequestId(record.id, due));
        record.runs++;
        record.lastJob = job;
        this.note(record, "run", `${record.name}: started ${job.name} (${job.id})${late}`, due, [job.id]);
      } catch (err) {
        const code = err instanceof RoostError ? `${err.code}: ` : "";
        this.note(
          record,
          "failed",
          `${record.name}: could not start: ${code}${(err as Error).message}`,
          due,
          [],
        );
      }
      record.lastDue = due;
      record.inFlightDue = null;
      if (this.records.has(record.id)) this.save(record);
    } finally {
      this.running.delete(record.id);
      this.reschedule();
    }
  }
}
