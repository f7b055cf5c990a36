import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type {
  AgentInfo,
  DeliverKind,
  JobRow,
  ReplyMode,
  Report,
  ResumeRow,
  WorktreeRecord,
} from "../../protocol/index.js";
import { JOB_ENV, LIMITS, RoostError } from "../../protocol/index.js";
import type { ConversationRecord } from "../conversations/conversation.js";
import { tokenHash } from "../jobs/job-token.js";
import { markVersion } from "./database-file.js";
import { OpWrites } from "./op-writes.js";
import { STORE_WRITER_SOURCE, WRITE_STATEMENTS, type Write } from "./store-writer.js";

/** What the store keeps of a job: its identity, how it runs, and its last known state. */
export interface JobRecord
  extends Pick<
    JobRow,
    | "id"
    | "name"
    | "profile"
    | "kind"
    | "cwd"
    | "task"
    | "lifecycle"
    | "pid"
    | "exitCode"
    | "pinned"
    | "order"
    | "capabilities"
    | "restarts"
    | "parentSession"
    | "rootSession"
    | "role"
    | "suggested"
    | "createdAt"
    | "updatedAt"
  > {
  command: string[];
  env: Record<string, string>;
  /** The hash of the token its process was last started with (`job-token.ts`); "" before its first start. */
  tokenHash: string;
  dir: string;
  report: Report | null;
  /** The name the agent last reported, so a hub rename holds until the agent names itself anew. */
  reportedName: string | null;
  /** Read from the terminal until the first report. */
  screenSummary: string | null;
  agent: AgentInfo | null;
  /** What went wrong, as the daemon saw it (a give-up after crashes, a failed start). */
  error: string | null;
  /** The next reply's seq: never reused, kept across restarts. */
  nextSeq: number;
  /** The parent's peer id when it spawned (the only link to a foreground parent without a session). */
  parentPeer?: string | null;
  /** A report for the parent that no one could take yet: sent when the parent is back. */
  undeliveredReport?: string | null;
  /** Runs its parent's messages started in a row that reported (at most 3 do). */
  parentRuns?: number;
  /** The last hand-backs' request ids, so a resend hands back once. */
  handbackIds?: string[];
  /** Its git worktree (absent in a record from before worktrees: none). */
  worktree?: WorktreeRecord | null;
  /** Its program's own conversation (Claude Code, Codex): where it is kept and what it used. */
  conversation?: ConversationRecord | null;
  /** A profile's `resume`: what makes its program take up its last conversation when started again. */
  resumeArgs?: string[];
  /** Whether its process was ever started: a first start has nothing to resume. */
  started?: boolean;
  /** How its last start went (resumed, or fresh and why). */
  resume?: ResumeRow | null;
}

declare const durable: unique symbol;

/**
 * What the store is given to write: a job's record as the job holds it (`Job.record`), never the job
 * itself, whose runtime state (its connection, its timers) would be written with it.
 */
export type DurableRecord = JobRecord & { readonly [durable]: true };

export interface StoredReply {
  jobId: string;
  seq: number;
  text: string;
  mode: ReplyMode | null;
  /** An agent item (a message, ...): acked one by one, not by a user reply's ack. */
  kind?: DeliverKind;
  /** Who sent the agent item. */
  from?: string;
  /** How the sender stands to the receiver (parent, child, ...); a digest's why (it has no sender). */
  relation?: string;
}

interface JobDbRow {
  id: string;
  data: string;
}

interface SpawnDbRow {
  id: string;
  command: string;
  env: string;
}

/**
 * A record from before tokens were kept hashed holds its token, in its row and its spawn record:
 * the hash takes its place (a process still running with it still speaks). Whether it changed.
 */
function hashKeptToken(job: JobRecord): boolean {
  const old = job as JobRecord & { token?: string };
  if (typeof old.token !== "string") return false;
  job.tokenHash = tokenHash(old.token);
  delete old.token;
  for (const name of JOB_ENV.token) delete job.env[name];
  return true;
}

/**
 * A job's row as written on every change: without how it is started (its command and its
 * environment), which is written once, with the job, and would only make every write bigger.
 */
function jobData(job: JobRecord): string {
  const { command: _command, env: _env, ...changing } = job;
  return JSON.stringify(changing);
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/** What goes with a write: what to do once it is committed, and how to undo its memory change when not. */
export interface WriteEffects {
  kept?(): void;
  /** Run only for a write asked by an op (the op then answers the error): the rest are logged. */
  undo?(): void;
  /** Run whenever the write is not kept, an op's or not: for what is only ever added (an item, an event). */
  lost?(): void;
}

/** A failed write as the op answers it: a full disk or a read-only database has a code of its own. */
export function storeError(message: string, sqliteCode: string | undefined): RoostError {
  const unwritable = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|PERM)/.test(sqliteCode ?? "");
  return new RoostError(unwritable ? "unwritable" : "internal", `the store could not write: ${message}`);
}

/** The fields of a job's record that `written` changed from `before`, set back where nothing changed them since. */
function revertFields(
  record: JobRecord,
  before: Record<string, unknown>,
  written: Record<string, unknown>,
): void {
  const fields = record as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(written)) {
    const was = JSON.stringify(before[field]);
    if (was === JSON.stringify(value) || JSON.stringify(fields[field]) !== JSON.stringify(value)) continue;
    fields[field] = before[field];
  }
}

/**
 * The daemon's durable state in SQLite (WAL). Reads happen once, at start; from then on the store
 * answers from memory (request ids included) and a worker thread writes, batching what one turn
 * of the event loop asked for into one transaction. A reply's promise resolves once it is
 * committed, and the reply is answered only then.
 *
 * `synchronous = NORMAL` in WAL mode: a committed write is in the log before the promise
 * resolves, so it survives the daemon's SIGKILL (the OS holds the written pages); only a power loss
 * may drop the last commits, the price of not syncing the disk on every reply.
 */
export class Store {
  /** The main thread's connection: the start's reads, and the tables other parts keep (board, ...). */
  private readonly db: Database.Database;
  private readonly writer: Worker;
  /** This turn's writes, one group per caller, each with its waiter. */
  private queued: Write[][] = [];
  private queuedWaiters: Waiter[] = [];
  private flushScheduled = false;
  private nextBatch = 1;
  private readonly inFlight = new Map<number, Waiter[]>();
  private broken: Error | null = null;
  private committedBatches = 0;
  /** Set once `close` is asked: resolves when the store is closed. */
  private closed: Promise<void> | undefined;
  private readonly jobs: JobRecord[];
  private readonly pending = new Map<string, StoredReply[]>();
  /** Per job: request id → seq, oldest first (at most 100), and the next position. */
  private readonly replyIds = new Map<string, { ids: Map<string, number>; next: number }>();
  private readonly dispatchIds = new Map<string, string>();
  /** Jobs removed whose process or folder may still be there (the host was away): finished off at adoption. */
  private readonly removed = new Set<string>();
  /** Each job's row as last given to the store: what an op's failed write sets its record back to. */
  private readonly lastAsked = new Map<string, Record<string, unknown>>();

  constructor(
    file: string,
    /** Where a failed write that nobody waits for is told. */
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {
    const db = new Database(file);
    this.db = db;
    {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("busy_timeout = 5000");
      db.exec(`
        CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, data TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS job_spawn (id TEXT PRIMARY KEY, command TEXT NOT NULL, env TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS replies (
          job_id TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL, mode TEXT,
          created_at TEXT NOT NULL, PRIMARY KEY (job_id, seq));
        CREATE TABLE IF NOT EXISTS reply_request_ids (
          job_id TEXT NOT NULL, request_id TEXT NOT NULL, seq INTEGER NOT NULL, n INTEGER NOT NULL,
          PRIMARY KEY (job_id, request_id));
        CREATE TABLE IF NOT EXISTS dispatch_request_ids (
          request_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS removed_jobs (id TEXT PRIMARY KEY, removed_at TEXT NOT NULL);
      `);
      // Agent items share the replies' queue (and seq); a database from before them gains the columns.
      const replyColumns = (db.pragma("table_info(replies)") as { name: string }[]).map((c) => c.name);
      if (!replyColumns.includes("kind")) db.exec("ALTER TABLE replies ADD COLUMN kind TEXT");
      if (!replyColumns.includes("sender")) db.exec("ALTER TABLE replies ADD COLUMN sender TEXT");
      if (!replyColumns.includes("relation")) db.exec("ALTER TABLE replies ADD COLUMN relation TEXT");
      markVersion(db);
      const spawns = new Map(
        (db.prepare("SELECT id, command, env FROM job_spawn").all() as SpawnDbRow[]).map((r) => [r.id, r]),
      );
      let hashed = false;
      this.jobs = (db.prepare("SELECT id, data FROM jobs").all() as JobDbRow[]).map((r) => {
        const job = JSON.parse(r.data) as JobRecord;
        const spawn = spawns.get(r.id);
        if (spawn) {
          job.command = JSON.parse(spawn.command) as string[];
          job.env = JSON.parse(spawn.env) as Record<string, string>;
        }
        if (hashKeptToken(job)) {
          // The row's old text is overwritten, not left in a free page.
          db.pragma("secure_delete = ON");
          db.prepare("UPDATE jobs SET data = ? WHERE id = ?").run(jobData(job), job.id);
          db.prepare("UPDATE job_spawn SET env = ? WHERE id = ?").run(JSON.stringify(job.env), job.id);
          hashed = true;
        }
        this.lastAsked.set(job.id, JSON.parse(jobData(job)) as Record<string, unknown>);
        return job;
      });
      // The pages that held the plain tokens are written over in the file now, not at some later checkpoint.
      if (hashed) db.pragma("wal_checkpoint(TRUNCATE)");
      const replies = db
        .prepare("SELECT job_id, seq, text, mode, kind, sender, relation FROM replies ORDER BY job_id, seq")
        .all() as {
        job_id: string;
        seq: number;
        text: string;
        mode: string | null;
        kind: string | null;
        sender: string | null;
        relation: string | null;
      }[];
      for (const r of replies) {
        const list = this.pending.get(r.job_id) ?? [];
        list.push({
          jobId: r.job_id,
          seq: r.seq,
          text: r.text,
          mode: r.mode as ReplyMode | null,
          ...(r.kind !== null ? { kind: r.kind as DeliverKind } : {}),
          ...(r.sender !== null ? { from: r.sender } : {}),
          ...(r.relation !== null ? { relation: r.relation } : {}),
        });
        this.pending.set(r.job_id, list);
      }
      const ids = db
        .prepare("SELECT job_id, request_id, seq, n FROM reply_request_ids ORDER BY job_id, n")
        .all() as { job_id: string; request_id: string; seq: number; n: number }[];
      for (const r of ids) {
        const kept = this.replyIdsOf(r.job_id);
        kept.ids.set(r.request_id, r.seq);
        kept.next = r.n + 1;
      }
      const dispatches = db.prepare("SELECT request_id, job_id FROM dispatch_request_ids").all() as {
        request_id: string;
        job_id: string;
      }[];
      for (const r of dispatches) this.dispatchIds.set(r.request_id, r.job_id);
      for (const r of db.prepare("SELECT id FROM removed_jobs").all() as { id: string }[])
        this.removed.add(r.id);
    }
    this.writer = new Worker(STORE_WRITER_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve("better-sqlite3"),
        statements: WRITE_STATEMENTS,
      },
    });
    this.writer.on(
      "message",
      (m: { batch?: number; errors?: ({ message: string; code?: string } | null)[] | null }) => {
        if (m.batch === undefined) return;
        const waiters = this.inFlight.get(m.batch) ?? [];
        this.inFlight.delete(m.batch);
        this.committedBatches++;
        waiters.forEach((w, i) => {
          const error = m.errors?.[i];
          if (error) w.reject(storeError(error.message, error.code));
          else w.resolve();
        });
      },
    );
    this.writer.on("error", (err) => this.fail(err));
    this.writer.on("exit", () => this.fail(new Error("the store's writer ended")));
  }

  private fail(err: Error): void {
    this.broken ??= err;
    for (const waiters of this.inFlight.values()) for (const w of waiters) w.reject(err);
    this.inFlight.clear();
  }

  /**
   * Queues writes for this turn's transaction; resolves when that transaction is committed. Asked
   * for an op (see `OpWrites`), they join the op's other writes of this turn in one group, and the
   * op answers only once they are kept, its memory changes undone when they are not.
   */
  private write(writes: Write[], effects: WriteEffects = {}): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    // Once closing, everything asked before is committed when the store is closed; a write asked
    // after is not made.
    if (this.closed)
      return writes.length === 0 ? this.closed : Promise.reject(new Error("the store is closed"));
    const op = writes.length > 0 ? OpWrites.current() : undefined;
    const done = this.enqueue(writes, op);
    if (effects.kept || effects.lost) done.then(effects.kept, effects.lost ?? (() => {}));
    op?.track(done, effects.undo);
    return done;
  }

  private enqueue(writes: Write[], op?: OpWrites): Promise<void> {
    const joined = op?.turnGroup;
    if (joined && joined.batch === this.nextBatch) {
      joined.writes.push(...writes);
      return joined.done;
    }
    const group = [...writes];
    this.queued.push(group);
    const done = new Promise<void>((resolve, reject) => this.queuedWaiters.push({ resolve, reject }));
    if (op) op.turnGroup = { batch: this.nextBatch, writes: group, done };
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return done;
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queuedWaiters.length === 0) return;
    const batch = this.nextBatch++;
    this.inFlight.set(batch, this.queuedWaiters);
    this.writer.postMessage({ batch, groups: this.queued });
    this.queued = [];
    this.queuedWaiters = [];
  }

  /**
   * Names statements for the writer to prepare once, for the parts of the daemon that keep tables
   * of their own (feed, board, schedules, watches): they create and read them on `database` at
   * start, and write through the writer like the jobs do.
   */
  define(statements: Record<string, string>): void {
    this.writer.postMessage({ define: statements });
  }

  /**
   * A write its caller does not wait for (a row's state): asked for an op, the op waits for it and
   * answers its failure; otherwise a failure is logged and the daemon goes on.
   */
  writeLater(writes: Write[], effects?: WriteEffects): Promise<void> {
    const op = OpWrites.current();
    const done = this.write(writes, effects);
    done.catch((err) => {
      if (!this.closed && !op) this.log(`roost: ${(err as Error).message}`);
    });
    return done;
  }

  /**
   * Runs `fn` with the writes it asks for kept or lost together (one group, as an op's writes of a
   * turn are), for an op or not.
   */
  together<T>(fn: () => T): T {
    if (OpWrites.current()) return fn();
    const writes = new OpWrites();
    try {
      return writes.run(fn);
    } finally {
      // Closed, so that what runs later in its async context is not grouped with it.
      void writes.settle();
    }
  }

  /** Resolves when everything written so far is committed. */
  committed(): Promise<void> {
    return this.write([]);
  }

  /** Transactions the writer has answered so far (what a backup asks: was anything written since). */
  get commits(): number {
    return this.committedBatches;
  }

  loadJobs(): JobRecord[] {
    return this.jobs;
  }

  /** The jobs removed whose removal may not be finished (see `forgetRemoved`). */
  removedJobs(): ReadonlySet<string> {
    return this.removed;
  }

  /** The removals now finished: the host let go of those jobs and their folders are gone. */
  forgetRemoved(ids: Iterable<string>): void {
    const writes: Write[] = [];
    for (const id of ids) {
      this.removed.delete(id);
      writes.push(["deleteRemoved", id]);
    }
    if (writes.length > 0) this.writeLater(writes);
  }

  pendingReplies(jobId: string): StoredReply[] {
    return this.pending.get(jobId) ?? [];
  }

  /**
   * Saves a job's row; `reverted` hears when an op's failed write set the record back. Resolves once
   * it is committed, for an op that must know the store takes its change before it acts.
   */
  saveJob(job: DurableRecord, reverted?: () => void): Promise<void> {
    const [write, effects] = this.putJob(job, reverted);
    return this.writeLater([write], effects);
  }

  /**
   * A job's row write, and the undo that sets back what it changed since the row last given to the
   * store (an op's change: the op saves right after it makes it).
   */
  private putJob(job: DurableRecord, reverted?: () => void): [Write, WriteEffects] {
    const data = jobData(job);
    const before = this.lastAsked.get(job.id) ?? {};
    const written = JSON.parse(data) as Record<string, unknown>;
    this.lastAsked.set(job.id, written);
    const undo = () => {
      revertFields(job, before, written);
      if (this.lastAsked.get(job.id) === written) this.lastAsked.set(job.id, before);
      reverted?.();
    };
    return [["putJob", job.id, data], { undo }];
  }

  /** Saves each job in a write of its own: one that cannot be written does not keep the others back. */
  saveJobs(jobs: DurableRecord[]): void {
    for (const job of jobs) {
      try {
        this.saveJob(job);
      } catch (err) {
        this.log(`roost: job ${job.id} could not be saved: ${(err as Error).message}`);
      }
    }
  }

  /**
   * A new job, its dispatch request id and its first reply (the task) in one transaction. A write
   * that fails forgets the request id again: a resend is then taken anew.
   */
  createJob(job: DurableRecord, requestId: string | undefined, firstReply: string | null): Promise<void> {
    const writes: Write[] = [
      this.putJob(job)[0],
      ["putSpawn", job.id, JSON.stringify(job.command), JSON.stringify(job.env)],
    ];
    if (requestId !== undefined) {
      this.dispatchIds.set(requestId, job.id);
      writes.push(["insertDispatch", requestId, job.id, job.createdAt]);
    }
    if (firstReply !== null) writes.push(["insertReply", job.id, 1, firstReply, null, job.createdAt]);
    return this.write(writes).catch((err) => {
      if (requestId !== undefined && this.dispatchIds.get(requestId) === job.id)
        this.dispatchIds.delete(requestId);
      throw err;
    });
  }

  /** Deletes a job and all it keeps; resolves once committed (what it held in memory goes then). */
  deleteJob(id: string): Promise<void> {
    return this.writeLater(
      [
        ["deleteJob", id],
        ["deleteSpawn", id],
        ["deleteReplies", id],
        ["deleteReplyIds", id],
        ["deleteDispatchIds", id],
        ["insertRemoved", id, new Date().toISOString()],
      ],
      {
        kept: () => {
          this.removed.add(id);
          this.replyIds.delete(id);
          this.lastAsked.delete(id);
          for (const [requestId, jobId] of this.dispatchIds)
            if (jobId === id) this.dispatchIds.delete(requestId);
        },
      },
    );
  }

  /**
   * Saves a reply, the job's advanced seq and its request id in one transaction; resolves once it
   * is committed. Only the last 100 request ids of the job are kept.
   */
  addReply(
    job: DurableRecord,
    reply: StoredReply,
    requestId: string | undefined,
    now: string,
  ): Promise<void> {
    return this.keepingReplyId(job.id, requestId, reply.seq, [
      ["insertReply", job.id, reply.seq, reply.text, reply.mode, now],
      this.putJob(job)[0],
    ]);
  }

  /** Keeps a reply's request id alone: a terminal agent's reply is typed, not queued. */
  addTypedReply(job: DurableRecord, seq: number, requestId: string | undefined): Promise<void> {
    return this.keepingReplyId(job.id, requestId, seq, [this.putJob(job)[0]]);
  }

  /** Writes with the reply's request id; a write that fails forgets the id (a resend is taken anew). */
  private keepingReplyId(jobId: string, requestId: string | undefined, seq: number, writes: Write[]) {
    return this.write([...writes, ...this.rememberReplyId(jobId, requestId, seq)]).catch((err) => {
      const kept = requestId === undefined ? undefined : this.replyIds.get(jobId);
      if (kept?.ids.get(requestId!) === seq) kept.ids.delete(requestId!);
      throw err;
    });
  }

  private replyIdsOf(jobId: string) {
    let kept = this.replyIds.get(jobId);
    if (!kept) {
      kept = { ids: new Map(), next: 1 };
      this.replyIds.set(jobId, kept);
    }
    return kept;
  }

  private rememberReplyId(jobId: string, requestId: string | undefined, seq: number): Write[] {
    if (requestId === undefined) return [];
    const kept = this.replyIdsOf(jobId);
    const n = kept.next++;
    kept.ids.delete(requestId);
    kept.ids.set(requestId, seq);
    while (kept.ids.size > LIMITS.replyRequestIdsKept) kept.ids.delete(kept.ids.keys().next().value!);
    return [
      ["insertReplyId", jobId, requestId, seq, n],
      ["trimReplyIds", jobId, n - LIMITS.replyRequestIdsKept],
    ];
  }

  findReplyRequest(jobId: string, requestId: string): number | undefined {
    return this.replyIds.get(jobId)?.ids.get(requestId);
  }

  findDispatchRequest(requestId: string): string | undefined {
    return this.dispatchIds.get(requestId);
  }

  /** Drops acked replies: every user reply up to `seq`, or that one alone (`exact`, an agent item). */
  ack(jobId: string, seq: number, exact: boolean): void {
    this.writeLater([exact ? ["ackExact", jobId, seq] : ["ackUpTo", jobId, seq]]);
  }

  /**
   * Saves an agent item on the job's queue with the job's advanced seq, in one transaction; `lost`
   * takes it off the queue in memory when its write fails.
   */
  addAgentItem(job: DurableRecord, item: StoredReply, now: string, lost: () => void): void {
    const [putJob, effects] = this.putJob(job);
    this.writeLater(
      [
        [
          "insertItem",
          job.id,
          item.seq,
          item.text,
          item.mode,
          item.kind ?? "message",
          item.from ?? null,
          item.relation ?? null,
          now,
        ],
        putJob,
      ],
      { undo: effects.undo, lost },
    );
  }

  /**
   * The main thread's connection, for the parts of the daemon that keep tables of their own (board,
   * schedules, feed, watches): to create and read them at start. Their writes go through the writer.
   */
  get database(): Database.Database {
    return this.db;
  }

  /** Writes what is queued, then closes the database and the writer. */
  close(): Promise<void> {
    this.closed ??= this.closeNow();
    return this.closed;
  }

  private async closeNow(): Promise<void> {
    await this.enqueue([]).catch(() => {});
    if (this.broken) {
      this.db.close();
      return;
    }
    const closed = new Promise<void>((resolve) => {
      this.writer.on("message", (m: { closed?: boolean }) => m.closed && resolve());
    });
    this.writer.postMessage({ close: true });
    await closed;
    await this.writer.terminate();
    this.db.close();
  }
}
