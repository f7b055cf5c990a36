import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { CreateRunRequest, RunEvent, RunView } from "../protocol/index.js";
import type { HostedRun } from "./hosted-run.js";
import { SCHEMA, STORE_FORMAT } from "./run-store-schema.js";
import { RUN_STORE_WRITER_SOURCE, RUN_STORE_WRITES, type RunStoreWrite } from "./run-store-writer.js";

/** How often what the live runs did is written: often enough to lose little, seldom enough to cost nothing. */
export const STORE_FLUSH_MS = 200;
/** A server writing nothing for this long is taken for dead when another starts on its folder. */
const HEARTBEAT_MS = 1000;
export const STORE_FILE = "runs.db";

/** A live run being recorded: its events not yet written, and whether its view changed. */
interface Recording {
  hosted: HostedRun;
  pending: RunEvent[];
  dirty: boolean;
  stop: () => void;
}

/**
 * Where a server keeps its runs, so they outlive it: each run's creation, its event log as it
 * grows and its view (status, scores...), in SQLite (WAL) under the data folder. What live runs
 * did is gathered on a short timer and handed to a writer thread (run-store-writer.ts), one
 * transaction a batch, so the engine never waits on the disk: what a kill loses is the last
 * moment (a run that ended in it comes back interrupted). A run's creation is written at once, so
 * its id is never given again. Opening the store marks the runs a previous server left live as
 * interrupted, saying when it was last heard from.
 */
export class RunStore {
  private readonly db: Database.Database;
  private readonly recordings = new Map<string, Recording>();
  private readonly timer: NodeJS.Timeout;
  private readonly writer: Worker;
  private readonly writerClosed: Promise<void>;
  /** Writes gathered since the last batch went to the writer. */
  private queued: RunStoreWrite[] = [];
  /** Why the writer failed, if it did: reported once, on the server's log. */
  private writeError: string | undefined;
  private readonly instance: number;
  private lastHeartbeat = 0;
  private closed = false;
  /** Ended runs from before this server, oldest ended first. */
  readonly restored: RunView[];

  private constructor(
    file: string,
    private readonly now: () => number,
  ) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
    this.checkFormat();
    this.refuseIfInUse(file);
    const started = now() / 1000;
    this.instance = Number(
      this.db
        .prepare("INSERT INTO instances (pid, started_unix, seen_unix) VALUES (?, ?, ?)")
        .run(process.pid, started, started).lastInsertRowid,
    );
    this.interruptLeftovers();
    this.restored = this.db
      .prepare("SELECT view FROM runs WHERE ended_order IS NOT NULL ORDER BY ended_order")
      .all()
      // A run kept by a warren from before trials was played as trial 0.
      .map(
        (row) =>
          ({ trial: 0, ...(JSON.parse((row as { view: string }).view) as Partial<RunView>) }) as RunView,
      );
    this.writer = new Worker(RUN_STORE_WRITER_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
        statements: RUN_STORE_WRITES,
      },
    });
    this.writerClosed = new Promise((resolve) => {
      this.writer.on("message", (message: { closed?: boolean; error?: string }) => {
        if (message.closed) resolve();
        if (message.error && this.writeError === undefined) {
          this.writeError = message.error;
          process.emitWarning(`warren: the run store could not write: ${message.error}`);
        }
      });
      this.writer.on("exit", () => resolve());
    });
    this.timer = setInterval(() => this.flush(), STORE_FLUSH_MS);
    this.timer.unref();
  }

  /** Opens (creating it if need be) the store in `dir`, an owner-only folder. */
  static open(dir: string, now: () => number = Date.now): RunStore {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return new RunStore(join(dir, STORE_FILE), now);
  }

  /** The number of the next run, taken for good: never one a run had before, whatever restarts came between. */
  reserveRunNumber(): number {
    const row = this.db
      .prepare("UPDATE meta SET value = value + 1 WHERE key = 'next_run' RETURNING value - 1 AS number")
      .get() as { number: number };
    return row.number;
  }

  /** The number the next run will get. */
  get nextRunNumber(): number {
    return (this.db.prepare("SELECT value FROM meta WHERE key = 'next_run'").get() as { value: number })
      .value;
  }

  /** Writes a new run now, then its events and view as they change, and its end at once. */
  track(hosted: HostedRun, request: CreateRunRequest): void {
    const { run } = hosted;
    this.db
      .prepare(
        "INSERT INTO runs (run_id, number, scenario, seed, request, instance, view) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        run.id,
        Number(run.id.slice(4)),
        run.scenario.name,
        run.seed,
        JSON.stringify(request),
        this.instance,
        JSON.stringify(hosted.view()),
      );
    const recording: Recording = { hosted, pending: [], dirty: false, stop: () => {} };
    const offEvent = run.onEvent((event) => {
      recording.pending.push(event);
      recording.dirty = true;
    });
    const offEnd = run.onEnd(() => {
      this.gather(recording, true);
      this.recordings.delete(run.id);
    });
    recording.stop = () => {
      offEvent();
      offEnd();
    };
    this.recordings.set(run.id, recording);
  }

  /** A claim or a release changes a run's view without an event: it is written with the next batch. */
  touch(runId: string): void {
    const recording = this.recordings.get(runId);
    if (recording) recording.dirty = true;
  }

  /** Events of a stored run after `since`, at most `limit`. */
  events(runId: string, since: number, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    const chunks = this.db
      .prepare(
        "SELECT first_cursor, events FROM run_events WHERE run_id = ? AND last_cursor > ? ORDER BY first_cursor",
      )
      .iterate(runId, since) as Iterable<{ first_cursor: number; events: string }>;
    const out: RunEvent[] = [];
    for (const chunk of chunks) {
      const events = JSON.parse(chunk.events) as RunEvent[];
      for (let i = Math.max(0, since + 1 - chunk.first_cursor); i < events.length; i++) {
        if (out.length >= limit) return out;
        out.push(events[i]!);
      }
    }
    return out;
  }

  /** Forgets an ended run: its record and events go. */
  forget(runId: string): void {
    this.queued.push(["forgetEvents", runId], ["forgetRun", runId]);
  }

  /** Hands what is pending to the writer and waits for it to finish; runs still live stay as they were written. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const recording of this.recordings.values()) {
      this.gather(recording, false);
      recording.stop();
    }
    this.recordings.clear();
    const now = this.now() / 1000;
    this.queued.push(["stopped", now, now, this.instance]);
    this.writer.postMessage({ writes: this.queued, close: true });
    this.queued = [];
    await this.writerClosed;
    await this.writer.terminate();
    this.db.close();
  }

  /** Every STORE_FLUSH_MS: what the live runs did since, and the heartbeat, as one batch. */
  private flush(): void {
    for (const recording of this.recordings.values()) if (recording.dirty) this.gather(recording, false);
    const now = this.now();
    if (now - this.lastHeartbeat >= HEARTBEAT_MS) {
      this.queued.push(["seen", now / 1000, this.instance]);
      this.lastHeartbeat = now;
    }
    if (this.queued.length === 0) return;
    this.writer.postMessage({ writes: this.queued });
    this.queued = [];
  }

  /**
   * Queues a run's new events (one chunk: a JSON array, serialized at once, three times faster
   * than event by event) and its view; at its end, marks it ended.
   */
  private gather(recording: Recording, ended: boolean): void {
    const { pending, hosted } = recording;
    const runId = hosted.run.id;
    if (pending.length > 0) {
      this.queued.push(["chunk", runId, pending[0]!.cursor, pending.at(-1)!.cursor, JSON.stringify(pending)]);
    }
    recording.pending = [];
    recording.dirty = false;
    const view = hosted.view();
    this.queued.push(["view", JSON.stringify(view), view.status, runId]);
    if (ended) this.queued.push(["ended", runId]);
  }

  private checkFormat(): void {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as
      | { value: number }
      | undefined;
    if (row && row.value !== STORE_FORMAT) {
      throw new Error(
        `the run store is in format ${row.value}, this warren reads format ${STORE_FORMAT}; use another --data folder`,
      );
    }
  }

  /** Two servers on one folder would interrupt each other's runs: the second refuses to start. */
  private refuseIfInUse(file: string): void {
    const live = this.db
      .prepare("SELECT pid, seen_unix FROM instances WHERE stopped_unix IS NULL AND seen_unix > ?")
      .all((this.now() - 5 * HEARTBEAT_MS) / 1000) as { pid: number; seen_unix: number }[];
    for (const other of live) {
      if (other.pid !== process.pid && processAlive(other.pid)) {
        this.db.close();
        throw new Error(`another warren serve (pid ${other.pid}) keeps its runs in ${file}`);
      }
    }
  }

  /** Runs a previous server left created or running end as interrupted, their record saying when. */
  private interruptLeftovers(): void {
    const leftovers = this.db
      .prepare(
        `SELECT r.run_id, r.view, i.seen_unix, i.stopped_unix,
           (SELECT MAX(last_cursor) FROM run_events e WHERE e.run_id = r.run_id) AS last_cursor
         FROM runs r JOIN instances i ON i.id = r.instance
         WHERE r.ended_order IS NULL ORDER BY r.number`,
      )
      .all() as {
      run_id: string;
      view: string;
      seen_unix: number;
      stopped_unix: number | null;
      last_cursor: number | null;
    }[];
    const found = new Date(this.now()).toISOString();
    for (const row of leftovers) {
      const view = JSON.parse(row.view) as RunView;
      const stopped = new Date((row.stopped_unix ?? row.seen_unix) * 1000).toISOString();
      const reason = `the server stopped while the run was ${view.status} (last heard from at ${stopped}); found at its restart at ${found}`;
      const cursor = (row.last_cursor ?? 0) + 1;
      const event: RunEvent = {
        cursor,
        sim: false,
        sim_time_ms: view.sim_time_ms,
        kind: "status",
        data: { status: "interrupted", reason },
      };
      const interrupted: RunView = {
        ...view,
        status: "interrupted",
        status_reason: reason,
        event_cursor: cursor,
        agents: view.agents.map((a) => ({ ...a, leased: false, holder: null, lease_expires_unix: null })),
      };
      this.db.transaction(() => {
        this.db
          .prepare("INSERT INTO run_events (run_id, first_cursor, last_cursor, events) VALUES (?, ?, ?, ?)")
          .run(row.run_id, cursor, cursor, JSON.stringify([event]));
        this.db
          .prepare(
            "UPDATE runs SET view = ?, status = 'interrupted', ended_order = (SELECT COALESCE(MAX(ended_order), 0) + 1 FROM runs) WHERE run_id = ?",
          )
          .run(JSON.stringify(interrupted), row.run_id);
      })();
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
