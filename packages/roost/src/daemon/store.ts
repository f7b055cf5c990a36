import Database from "better-sqlite3";
import type { AgentInfo, DeliverKind, JobKind, Lifecycle, ReplyMode, Report } from "../protocol/index.js";
import { LIMITS } from "../protocol/index.js";

/** What the store keeps of a job: its identity, how it runs, and its last known state. */
export interface JobRecord {
  id: string;
  name: string;
  profile: string;
  kind: JobKind;
  cwd: string;
  task: string | null;
  command: string[];
  env: Record<string, string>;
  token: string;
  dir: string;
  lifecycle: Lifecycle;
  report: Report | null;
  /** The name the agent last reported, so a hub rename holds until the agent names itself anew. */
  reportedName: string | null;
  /** Read from the terminal until the first report. */
  screenSummary: string | null;
  pid: number | null;
  exitCode: number | null;
  pinned: boolean;
  order: number;
  capabilities: string[];
  agent: AgentInfo | null;
  restarts: number;
  /** What went wrong, as the daemon saw it (a give-up after crashes, a failed start). */
  error: string | null;
  /** The next reply's seq: never reused, kept across restarts. */
  nextSeq: number;
  createdAt: string;
  updatedAt: string;
}

export interface StoredReply {
  jobId: string;
  seq: number;
  text: string;
  mode: ReplyMode | null;
  /** An agent item (a message, ...): acked one by one, not by a user reply's ack. */
  kind?: DeliverKind;
  /** Who sent the agent item. */
  from?: string;
}

interface JobDbRow {
  id: string;
  data: string;
}

/**
 * The daemon's durable state in SQLite (WAL). `synchronous = NORMAL` in WAL mode commits to the
 * log before a write returns, so a committed reply survives the daemon's SIGKILL (the OS holds the
 * written pages); only a power loss may drop the last commits, the price of not syncing the disk
 * on every reply.
 */
export class Store {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS replies (
        job_id TEXT NOT NULL, seq INTEGER NOT NULL, text TEXT NOT NULL, mode TEXT,
        created_at TEXT NOT NULL, PRIMARY KEY (job_id, seq));
      CREATE TABLE IF NOT EXISTS reply_request_ids (
        job_id TEXT NOT NULL, request_id TEXT NOT NULL, seq INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (job_id, request_id));
      CREATE TABLE IF NOT EXISTS dispatch_request_ids (
        request_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, created_at TEXT NOT NULL);
    `);
    // Agent items share the replies' queue (and seq); a database from before them gains the columns.
    const replyColumns = (this.db.pragma("table_info(replies)") as { name: string }[]).map((c) => c.name);
    if (!replyColumns.includes("kind")) this.db.exec("ALTER TABLE replies ADD COLUMN kind TEXT");
    if (!replyColumns.includes("sender")) this.db.exec("ALTER TABLE replies ADD COLUMN sender TEXT");
    this.statements = {
      allJobs: this.db.prepare("SELECT id, data FROM jobs"),
      putJob: this.db.prepare("INSERT OR REPLACE INTO jobs (id, data) VALUES (?, ?)"),
      deleteJob: this.db.prepare("DELETE FROM jobs WHERE id = ?"),
      deleteReplies: this.db.prepare("DELETE FROM replies WHERE job_id = ?"),
      deleteReplyIds: this.db.prepare("DELETE FROM reply_request_ids WHERE job_id = ?"),
      deleteDispatchIds: this.db.prepare("DELETE FROM dispatch_request_ids WHERE job_id = ?"),
      pending: this.db.prepare(
        "SELECT job_id, seq, text, mode, kind, sender FROM replies WHERE job_id = ? ORDER BY seq",
      ),
      insertItem: this.db.prepare(
        "INSERT INTO replies (job_id, seq, text, mode, kind, sender, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ),
      insertReply: this.db.prepare(
        "INSERT INTO replies (job_id, seq, text, mode, created_at) VALUES (?, ?, ?, ?, ?)",
      ),
      ackUpTo: this.db.prepare("DELETE FROM replies WHERE job_id = ? AND seq <= ? AND kind IS NULL"),
      ackExact: this.db.prepare("DELETE FROM replies WHERE job_id = ? AND seq = ?"),
      findReplyId: this.db.prepare("SELECT seq FROM reply_request_ids WHERE job_id = ? AND request_id = ?"),
      nextReplyIdN: this.db.prepare(
        "SELECT COALESCE(MAX(n), 0) + 1 AS n FROM reply_request_ids WHERE job_id = ?",
      ),
      insertReplyId: this.db.prepare(
        "INSERT INTO reply_request_ids (job_id, request_id, seq, n) VALUES (?, ?, ?, ?)",
      ),
      trimReplyIds: this.db.prepare("DELETE FROM reply_request_ids WHERE job_id = ? AND n <= ?"),
      findDispatch: this.db.prepare("SELECT job_id FROM dispatch_request_ids WHERE request_id = ?"),
      insertDispatch: this.db.prepare(
        "INSERT OR REPLACE INTO dispatch_request_ids (request_id, job_id, created_at) VALUES (?, ?, ?)",
      ),
    };
  }

  loadJobs(): JobRecord[] {
    return (this.statements.allJobs.all() as JobDbRow[]).map((r) => JSON.parse(r.data) as JobRecord);
  }

  saveJob(job: JobRecord): void {
    this.statements.putJob.run(job.id, JSON.stringify(job));
  }

  saveJobs(jobs: JobRecord[]): void {
    this.db.transaction(() => {
      for (const job of jobs) this.saveJob(job);
    })();
  }

  /** A new job, its dispatch request id and its first reply (the task) in one write. */
  createJob(job: JobRecord, requestId: string | undefined, firstReply: string | null): void {
    this.db.transaction(() => {
      this.saveJob(job);
      if (requestId !== undefined) this.statements.insertDispatch.run(requestId, job.id, job.createdAt);
      if (firstReply !== null) this.statements.insertReply.run(job.id, 1, firstReply, null, job.createdAt);
    })();
  }

  deleteJob(id: string): void {
    this.db.transaction(() => {
      this.statements.deleteJob.run(id);
      this.statements.deleteReplies.run(id);
      this.statements.deleteReplyIds.run(id);
      this.statements.deleteDispatchIds.run(id);
    })();
  }

  pendingReplies(jobId: string): StoredReply[] {
    return (
      this.statements.pending.all(jobId) as {
        job_id: string;
        seq: number;
        text: string;
        mode: string | null;
        kind: string | null;
        sender: string | null;
      }[]
    ).map((r) => ({
      jobId: r.job_id,
      seq: r.seq,
      text: r.text,
      mode: r.mode as ReplyMode | null,
      ...(r.kind !== null ? { kind: r.kind as DeliverKind } : {}),
      ...(r.sender !== null ? { from: r.sender } : {}),
    }));
  }

  /**
   * Saves a reply, the job's advanced seq and its request id in one transaction: once this returns,
   * the reply is durable. Only the last 100 request ids of the job are kept.
   */
  addReply(job: JobRecord, reply: StoredReply, requestId: string | undefined, now: string): void {
    this.db.transaction(() => {
      this.statements.insertReply.run(job.id, reply.seq, reply.text, reply.mode, now);
      this.saveJob(job);
      if (requestId !== undefined) this.rememberReplyId(job.id, requestId, reply.seq);
    })();
  }

  /** Keeps a reply's request id alone: a terminal agent's reply is typed, not queued. */
  addTypedReply(job: JobRecord, seq: number, requestId: string | undefined): void {
    this.db.transaction(() => {
      this.saveJob(job);
      if (requestId !== undefined) this.rememberReplyId(job.id, requestId, seq);
    })();
  }

  private rememberReplyId(jobId: string, requestId: string, seq: number): void {
    const { n } = this.statements.nextReplyIdN.get(jobId) as { n: number };
    this.statements.insertReplyId.run(jobId, requestId, seq, n);
    this.statements.trimReplyIds.run(jobId, n - LIMITS.replyRequestIdsKept);
  }

  findReplyRequest(jobId: string, requestId: string): number | undefined {
    const row = this.statements.findReplyId.get(jobId, requestId) as { seq: number } | undefined;
    return row?.seq;
  }

  findDispatchRequest(requestId: string): string | undefined {
    const row = this.statements.findDispatch.get(requestId) as { job_id: string } | undefined;
    return row?.job_id;
  }

  /** Drops acked replies: every user reply up to `seq`, or that one alone (`exact`, an agent item). */
  ack(jobId: string, seq: number, exact: boolean): void {
    if (exact) this.statements.ackExact.run(jobId, seq);
    else this.statements.ackUpTo.run(jobId, seq);
  }

  /** Saves an agent item on the job's queue with the job's advanced seq, in one transaction. */
  addAgentItem(job: JobRecord, item: StoredReply, now: string): void {
    this.db.transaction(() => {
      this.statements.insertItem.run(
        job.id,
        item.seq,
        item.text,
        item.mode,
        item.kind ?? "message",
        item.from ?? null,
        now,
      );
      this.saveJob(job);
    })();
  }

  /** The database itself, for the parts of the daemon that keep tables of their own (board, schedules, feed). */
  get database(): Database.Database {
    return this.db;
  }

  close(): void {
    this.db.close();
  }
}
