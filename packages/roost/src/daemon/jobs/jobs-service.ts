/**
 * The jobs as the ops see them: found by id or name, kept, listed, and their lifecycle as a person
 * drives it (stop, respawn, rm, with the work in a job's git worktree never lost by them), each
 * checked to be still the same job after every await.
 */
import type { JobAuth, RmResult } from "../../protocol/index.js";
import type { BudgetGate } from "../budgets/budget-gate.js";
import { startFresh } from "../conversations/job-launch.js";
import type { Worktrees } from "../worktrees/worktrees.js";
import type { DaemonState } from "./daemon-state.js";
import type { Job } from "./job.js";
import { removeJobFolder } from "./job-folders.js";
import { lastOutputLines } from "./output-lines.js";
import type { Supervisor } from "./supervisor.js";

export class Jobs {
  constructor(
    private readonly state: DaemonState,
    private readonly supervisor: Supervisor,
    private readonly worktrees: Worktrees,
    private readonly budgets: BudgetGate,
  ) {}

  /** A job by id, or by a name only one job has. */
  resolve(idOrName: unknown): Job {
    return this.state.resolve(idOrName);
  }

  /** The job a request speaks for, checked against its token. */
  authorize(auth: JobAuth): Job {
    return this.state.authorize(auth);
  }

  get(id: string): Job | undefined {
    return this.state.jobs.get(id);
  }

  all(): Job[] {
    return [...this.state.jobs.values()];
  }

  get count(): number {
    return this.state.jobs.size;
  }

  /** Written through to the store; resolves once committed. */
  save(job: Job): Promise<void> {
    return this.state.save(job);
  }

  /** Written with others a moment later (reports). */
  saveSoon(job: Job): void {
    this.state.saveSoon(job);
  }

  /** Tells who listens that the row changed (what changed lives in memory only). */
  changed(job: Job): void {
    this.state.changed(job);
  }

  /** An agent took its replies up to `seq` (or `seq` alone, `exact`). */
  acked(job: Job, seq: number, exact: boolean): void {
    this.state.store.ack(job.id, seq, exact);
  }

  /** Rows in the order the user keeps. */
  rows() {
    return this.state.rows();
  }

  /**
   * The job's last output lines as a person would read them. Of a job that just ended, once its last
   * screen is in its folder: its row says it ended a moment before that, and a reader asks then.
   */
  async outputLines(job: Job, count: number): Promise<string[]> {
    await this.supervisor.lastScreenKept(job);
    return lastOutputLines(this.state, job, count);
  }

  /** Kept first, then acted on: a store that cannot write refuses it before the process is touched. */
  private async keptThen(idOrName: unknown, act: (job: Job) => Promise<void>): Promise<{ id: string }> {
    const job = this.resolve(idOrName);
    if (!this.state.host) await this.state.waitForHost();
    this.state.requireHost();
    await this.state.save(this.state.current(job));
    await act(this.state.current(job));
    return { id: job.id };
  }

  stop(idOrName: unknown): Promise<{ id: string }> {
    return this.keptThen(idOrName, (job) => this.supervisor.stop(job));
  }

  /** `fresh`: its program starts a new conversation rather than taking up its last one. */
  respawn(idOrName: unknown, fresh = false): Promise<{ id: string }> {
    const job = this.resolve(idOrName);
    // A worktree the person deleted is said, never made again; a spent budget is said before it is spent more.
    this.worktrees.requirePresent(job);
    this.budgets.refuseSpent(job, "nothing was started", fresh);
    return this.keptThen(idOrName, (job) => {
      if (fresh) startFresh(job, "started fresh, as asked");
      return this.supervisor.respawn(job);
    });
  }

  /** `force`: even with work in its worktree (saved first); `deleteBranch`: its branch goes too. */
  async rm(idOrName: unknown, force = false, deleteBranch = false): Promise<RmResult> {
    const { state } = this;
    let job = this.resolve(idOrName);
    // Work in its worktree is not lost by a removal the person did not force.
    await this.worktrees.checkRemoval(job, force);
    job = state.current(job);
    // Out of the table first: its exit, screens and replies from now on find no job to act for. Kept
    // before anything else: a store that cannot write refuses the removal, the job back as it was.
    state.jobs.delete(job.id);
    try {
      await state.store.deleteJob(job.id);
    } catch (err) {
      state.jobs.set(job.id, job);
      throw err;
    }
    state.removed(job.id);
    // The folder goes only once the host has let go of the job: its log is closed, its process reaped.
    await this.supervisor.remove(job);
    const worktree = await this.worktrees.release(job, deleteBranch);
    removeJobFolder(job.dir);
    return { id: job.id, ...worktree };
  }
}
