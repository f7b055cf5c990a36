import {
  PEER_LIMITS,
  RoostError,
  type WatchArgs,
  type WatchResult,
  type WatchWhen,
} from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { Job } from "../jobs/job.js";
import type { Store } from "../store/store.js";
import { deliverItem } from "./deliver-item.js";
import { envelope } from "./envelope.js";
import type { PeerContext } from "./peer-context.js";
import { allSessions, findTarget, jobForSession, jobSession, relationOf, speakerOf } from "./sessions.js";

interface WatchRow {
  id: number;
  watcher: string;
  target: string;
  target_name: string;
  when_: WatchWhen;
  created_at: number;
}

/** Has ended: failed, stopped (removed is told apart). */
function hasEnded(job: Job): boolean {
  return job.lifecycle === "failed" || job.lifecycle === "stopped";
}

/** Is at a stop: done, a question, failed, stopped, or its process ended; or it says it is idle. */
function isIdle(job: Job): boolean {
  const r = job.report;
  return (
    hasEnded(job) ||
    job.lifecycle === "done" ||
    job.lifecycle === "reaped" ||
    r?.state === "done" ||
    r?.state === "blocked" ||
    r?.state === "failed" ||
    r?.status === "idle"
  );
}

function holds(job: Job | undefined, when: WatchWhen): boolean {
  if (!job) return true; // Removed: idle and ended both.
  // Cut off with the host, neither: what it last said is not where its work stands once resumed.
  if (job.lifecycle === "interrupted") return false;
  return when === "idle" ? isIdle(job) : hasEnded(job);
}

/**
 * `watch {id, when}` (M43): tells the watching session once, as a `notice`, when a job is next idle
 * or has ended. Kept in the store (across a restart), dropped after 12 hours, at most 20 per
 * session. A watch on a job already so fires at once.
 */
export class Watches {
  private rows: WatchRow[];
  private nextId: number;

  constructor(
    private readonly pc: PeerContext,
    private readonly store: Store,
  ) {
    const db = store.database;
    db.exec(`CREATE TABLE IF NOT EXISTS peer_watches (
      id INTEGER PRIMARY KEY AUTOINCREMENT, watcher TEXT NOT NULL, target TEXT NOT NULL,
      target_name TEXT NOT NULL, when_ TEXT NOT NULL, created_at INTEGER NOT NULL)`);
    // Written through the store's writer, off the event loop.
    store.define({
      "watch.insert":
        "INSERT INTO peer_watches (id, watcher, target, target_name, when_, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      "watch.remove": "DELETE FROM peer_watches WHERE id = ?",
    });
    this.rows = db
      .prepare("SELECT id, watcher, target, target_name, when_, created_at FROM peer_watches ORDER BY id")
      .all() as WatchRow[];
    const used = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'peer_watches'").get() as
      | { seq: number }
      | undefined;
    this.nextId = Math.max(used?.seq ?? 0, ...this.rows.map((r) => r.id)) + 1;
    // Expired ones go by the clock too, not only when a job's change has them looked at.
    setInterval(() => this.current(), 60_000).unref();
  }

  private remove(id: number): void {
    this.store.writeLater([["watch.remove", id]]);
  }

  /** The watches still in force (the expired ones are dropped on the way). */
  private current(): WatchRow[] {
    const since = this.pc.now() - PEER_LIMITS.watchExpiryMs;
    for (const row of this.rows) if (row.created_at <= since) this.remove(row.id);
    this.rows = this.rows.filter((r) => r.created_at > since);
    return this.rows;
  }

  watch(caller: Caller, args: WatchArgs): WatchResult {
    const { state, foreground } = this.pc;
    const self = speakerOf(state, foreground, caller);
    const { when } = args;
    const target = findTarget(
      self,
      allSessions(state, foreground),
      args.id,
      this.pc.settings().externalMessages,
    );
    if (!target.job)
      throw new RoostError("unsupported", `${target.name} is a foreground session: only jobs can be watched`);
    const rows = this.current();
    const same = rows.find(
      (r) => r.watcher === self.session && r.target === target.job!.id && r.when_ === when,
    );
    const result = { id: target.job.id, name: target.job.name, when: when as WatchWhen };
    if (same) return { ...result, fired: false };
    if (rows.filter((r) => r.watcher === self.session).length >= PEER_LIMITS.watches)
      throw new RoostError("limit", `${PEER_LIMITS.watches} watches at most per session`);
    if (rows.length >= PEER_LIMITS.watchesKept)
      throw new RoostError(
        "limit",
        `${PEER_LIMITS.watchesKept} watches at most in all; wait for some to fire`,
      );
    const row: WatchRow = {
      id: this.nextId++,
      watcher: self.session,
      target: target.job.id,
      target_name: target.job.name,
      when_: when as WatchWhen,
      created_at: this.pc.now(),
    };
    this.store.writeLater(
      [["watch.insert", row.id, row.watcher, row.target, row.target_name, row.when_, row.created_at]],
      { undo: () => (this.rows = this.rows.filter((r) => r !== row)) },
    );
    this.rows.push(row);
    const fired = holds(target.job, when as WatchWhen);
    // Already so: the notice comes once the answer is out.
    if (fired) caller.later(() => this.check());
    return { ...result, fired };
  }

  /** Fires every watch whose job is now as it waits for. */
  check(): void {
    if (this.rows.length === 0) return;
    for (const row of [...this.current()]) {
      const job = this.pc.state.jobs.get(row.target);
      if (holds(job, row.when_)) this.fire(row, job);
    }
  }

  private fire(row: WatchRow, job: Job | undefined): void {
    const { state, foreground, feed } = this.pc;
    this.remove(row.id);
    this.rows = this.rows.filter((r) => r.id !== row.id);
    const why = !job
      ? "was removed"
      : row.when_ === "ended"
        ? `has ended (${job.lifecycle})`
        : `is idle (${job.report?.state ?? job.lifecycle})`;
    const body = `${row.target_name} (${row.target}) ${why}: your watch (${row.when_}) fired.${job?.report?.summary ? `\nIts summary: ${job.report.summary}` : ""}${job?.report?.question ? `\nIt asks: ${job.report.question}` : ""}`;
    const watcherJob = jobForSession(state, row.watcher);
    const holder = foreground.bySession(row.watcher);
    const watcherSession = watcherJob ? jobSession(watcherJob) : null;
    const relation = job && watcherSession ? relationOf(watcherSession, jobSession(job)) : "tree";
    const text = envelope({ from: row.target_name, id: row.target, relation, kind: "notice" }, body);
    let outcome = "dropped";
    if (holder)
      outcome = foreground.deliver(holder, { text, kind: "notice", from: row.target_name, relation })
        ? "delivered"
        : "dropped";
    else if (watcherJob && watcherJob.kind === "protocol")
      outcome = deliverItem(state, this.pc.supervisor, watcherJob, {
        kind: "notice",
        from: row.target_name,
        relation,
        text,
      });
    feed.add({
      kind: "notice",
      why: row.when_,
      text: `${row.target_name} ${why} (to ${watcherJob?.name ?? holder?.name ?? row.watcher}: ${outcome})`,
      who: row.target_name,
      whoId: row.target,
      jobs: [row.target, ...(watcherJob ? [watcherJob.id] : [])],
    });
  }
}
