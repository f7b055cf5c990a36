/**
 * Keeps each worktree job's row current as its worktree changes. An edit the watch names updates
 * the row from the files it touched (`worktree-tally.ts`), at once; anything else (a commit, the
 * index, a new folder, the first read) is read from git whole, and so is a worktree gone quiet after
 * edits, for what only git can say (whether it merges). One read at a time per job: the changes that
 * come meanwhile are read once, after it.
 */
import { existsSync } from "node:fs";
import type { WorktreeRow } from "../../protocol/index.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { ObjectReader } from "./object-reader.js";
import type { ReadLimit } from "./read-limit.js";
import { firstRow, readWorktree } from "./worktree-status.js";
import { rowFromTally, type Tally, tallyEdits } from "./worktree-tally.js";

/** Edits at once past which a whole read is cheaper than comparing each file. */
const MAX_EDITS = 200;
/** How long a worktree is quiet after edits before git is asked whether it merges. */
const QUIET_READ_MS = 5000;

/** What changed since the last read: the paths edited, or `whole` (read it all from git). */
type Change = Set<string> | "whole";

export class WorktreeRowReader {
  private readonly reading = new Set<string>();
  private readonly pending = new Map<string, Change>();
  private readonly tallies = new Map<string, Tally>();
  private readonly quietTimers = new Map<string, NodeJS.Timeout>();
  /** One object reader per repository (a worktree's objects are its repository's). */
  private readonly objects = new Map<string, ObjectReader>();

  constructor(
    private readonly state: DaemonState,
    private readonly reads: ReadLimit,
    private readonly log: (line: string) => void,
  ) {}

  /** The job's worktree changed: `edits` names the files (null: read it whole). */
  changed(id: string, edits: ReadonlySet<string> | null): void {
    const before = this.pending.get(id);
    this.pending.set(
      id,
      edits === null || before === "whole" ? "whole" : new Set([...(before ?? []), ...edits]),
    );
    this.next(id);
  }

  /**
   * A worktree just made at its base commit, which is where the branch to merge into stands too:
   * nothing changed, nothing behind, nothing to read from git until it is edited.
   */
  madeAtBase(job: Job): void {
    const wt = job.worktree!;
    const commit = wt.baseCommit;
    this.tallies.set(job.id, { mergeBase: commit, head: commit, files: new Map(), uncommitted: new Set() });
    job.worktreeRow = { ...firstRow(wt), mergeable: wt.into ? true : null };
    this.state.changed(job);
  }

  /** Forgets a job that is gone (or no longer watched). */
  forget(id: string): void {
    this.pending.delete(id);
    this.tallies.delete(id);
    clearTimeout(this.quietTimers.get(id));
    this.quietTimers.delete(id);
  }

  close(): void {
    for (const id of [...this.quietTimers.keys()]) this.forget(id);
    for (const reader of this.objects.values()) reader.close();
    this.objects.clear();
  }

  private next(id: string): void {
    if (this.reading.has(id)) return;
    const change = this.pending.get(id);
    if (change === undefined) return;
    this.pending.delete(id);
    const job = this.state.jobs.get(id);
    if (!job?.worktree) return;
    this.reading.add(id);
    void this.read(job, change)
      .then((row) => {
        if (this.state.jobs.get(id) !== job) return;
        if (JSON.stringify(row) !== JSON.stringify(job.worktreeRow)) {
          job.worktreeRow = row;
          this.state.changed(job);
        }
      })
      .catch((err) => this.log(`roost: job ${id}'s worktree could not be read: ${(err as Error).message}`))
      .finally(() => {
        this.reading.delete(id);
        this.next(id);
      });
  }

  private async read(job: Job, change: Change): Promise<WorktreeRow> {
    const wt = job.worktree!;
    const tally = this.tallies.get(job.id);
    const before = job.worktreeRow;
    // A worktree folder deleted is no edit of its files: read whole, the row says it is gone at once.
    if (
      change !== "whole" &&
      tally &&
      before &&
      !before.missing &&
      before.error === null &&
      change.size <= MAX_EDITS &&
      existsSync(wt.path)
    ) {
      const tallied = await tallyEdits(tally, wt.path, this.objectsOf(wt.repository), change).catch(
        () => false,
      );
      if (tallied) {
        this.readWhenQuiet(job.id);
        return rowFromTally(tally, before);
      }
    }
    clearTimeout(this.quietTimers.get(job.id));
    this.quietTimers.delete(job.id);
    const read = await this.reads.run(() => readWorktree(wt, job.worktreeRow));
    if (read.tally) this.tallies.set(job.id, read.tally);
    else this.tallies.delete(job.id);
    return read.row;
  }

  private readWhenQuiet(id: string): void {
    clearTimeout(this.quietTimers.get(id));
    const timer = setTimeout(() => {
      this.quietTimers.delete(id);
      this.changed(id, null);
    }, QUIET_READ_MS);
    timer.unref();
    this.quietTimers.set(id, timer);
  }

  private objectsOf(repository: string): ObjectReader {
    let reader = this.objects.get(repository);
    if (!reader) {
      reader = new ObjectReader(repository);
      this.objects.set(repository, reader);
    }
    return reader;
  }
}
