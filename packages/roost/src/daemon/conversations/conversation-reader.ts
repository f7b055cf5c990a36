/**
 * Reads the session records of the terminal jobs whose programs keep them (Claude Code, Codex),
 * once a second, taking only what was appended since: each job's row gets the model, usage and
 * context its record says, the usage priced by the model's entry in the price table (read once a
 * round, so an edit of roost.json's prices applies within a second). A record not found yet, a line cut short, a line of a kind unknown: the
 * row waits or leaves it out; a line that should carry usage and does not read so makes the row's
 * usage unknown. Nothing here fails a job.
 */
import { setImmediate as yieldToEvents } from "node:timers/promises";
import { type ModelPrice, pricedUsage, readPrices } from "../../home/prices.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isLive, type Job } from "../jobs/job.js";
import { AppendedLines } from "./appended-lines.js";
import type { ConversationRecord } from "./conversation.js";
import { recordPlace } from "./record-place.js";
import { type RecordTally, takeLines } from "./session-record.js";
import { SESSION_RECORDS } from "./session-records.js";

/** How often the records are looked at. */
export const READ_INTERVAL_MS = 1000;
/** Reads of one record in one round: a long record is caught up over a few rounds. */
const READS_PER_ROUND = 8;

interface Reading {
  file: string;
  lines: AppendedLines;
  tally: RecordTally;
}

export class ConversationReader {
  private readonly readings = new Map<string, Reading>();
  /** Files looked at and found to be another's, per job: not opened again. */
  private readonly skipped = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  /** The price table the last round priced with, as JSON: a changed one prices every row again. */
  private pricedWith = "";

  constructor(
    private readonly state: DaemonState,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.round ??= this.readAll().finally(() => {
        this.round = null;
      });
    }, READ_INTERVAL_MS);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  removed(id: string): void {
    this.readings.delete(id);
    this.skipped.delete(id);
  }

  /** Reads every job's record once. */
  async readAll(): Promise<void> {
    const jobs = [...this.state.jobs.values()].filter((job) => job.conversation);
    if (jobs.length === 0) return;
    const prices = readPrices(this.state.paths.config);
    const pricedWith = JSON.stringify(prices);
    const repriced = pricedWith !== this.pricedWith;
    this.pricedWith = pricedWith;
    for (const job of jobs) {
      await yieldToEvents();
      await this.readJob(job, job.conversation!, prices, repriced).catch((err) =>
        this.log(`roost: job ${job.id}: reading its session record failed: ${(err as Error).message}`),
      );
    }
  }

  private async readJob(
    job: Job,
    record: ConversationRecord,
    prices: Record<string, ModelPrice>,
    repriced: boolean,
  ): Promise<void> {
    const format = SESSION_RECORDS[record.program];
    let reading = this.readings.get(job.id);
    // A new conversation (a fresh start): the old record is done with.
    if (reading && reading.file !== record.file) reading = undefined;
    let changed = repriced || !reading;
    if (!reading) {
      const file = record.file ?? (await this.find(job, record));
      if (file === null) return;
      reading = { file, lines: new AppendedLines(file), tally: format.tally() };
      this.readings.set(job.id, reading);
    }
    for (let i = 0; i < READS_PER_ROUND; i++) {
      if (i > 0) await yieldToEvents();
      const read = reading.lines.read();
      if (read === null) break;
      if (read.restarted) reading.tally = format.tally();
      takeLines(reading.tally, read.lines);
      changed ||= read.restarted || read.lines.length > 0;
      if (!read.more) break;
    }
    // Nothing new read and the same prices: the row stands as it is.
    if (!changed) return;
    // Removed, or started fresh, meanwhile: what was read is no longer its.
    if (this.state.jobs.get(job.id) !== job || job.conversation !== record) return;
    const facts = reading.tally.facts();
    const next: ConversationRecord = {
      ...record,
      file: reading.file,
      sessionId: facts.sessionId ?? record.sessionId,
      model: facts.model,
      usage: pricedUsage(facts.usage, facts.model, prices),
      context: facts.context,
      read: facts.read,
    };
    if (JSON.stringify(next) === JSON.stringify(job.conversation)) return;
    job.conversation = next;
    // Which record and session it is (what a resume needs) is kept at once; counts go with the next batch.
    if (next.file !== record.file || next.sessionId !== record.sessionId) await this.state.save(job);
    else this.state.saveSoon(job);
  }

  /** Looks for a live job's record: not before its process runs (its start time tells it from others'). */
  private find(job: Job, record: ConversationRecord): Promise<string | null> {
    if (!isLive(job) || job.startedAt === null) return Promise.resolve(null);
    const skip = this.skipped.get(job.id) ?? new Set<string>();
    this.skipped.set(job.id, skip);
    for (const other of this.state.jobs.values())
      if (other !== job && other.conversation?.file) skip.add(other.conversation.file);
    return SESSION_RECORDS[record.program].find(recordPlace(job, record.sessionId, job.startedAt), skip);
  }
}
