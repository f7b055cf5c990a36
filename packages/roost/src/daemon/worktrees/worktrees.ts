/**
 * Jobs' git worktrees, as one service: made on dispatch (a branch `roost/<name>` from the base),
 * set up, watched (a change shows on the row within a second or two, without running git for
 * every job on a timer), diffed, merged, saved and removed. Every git operation on one repository
 * that writes (a worktree made, a merge, a save, a removal) waits for the one before
 * (`RepositoryQueue`), so git's own locks never fail a dispatch; reads take no lock.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import type { AgentProfile } from "../../home/agent-profile.js";
import { readWorktreeSettings, type WorktreeMode, type WorktreeSetup } from "../../home/worktree-settings.js";
import {
  type BranchInfo,
  type DiffResult,
  LIMITS,
  type MergeArgs,
  type MergeResult,
  type RmResult,
  RoostError,
  type WorktreeRecord,
} from "../../protocol/index.js";
import { terminalLogPath } from "../host/files.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { git, requireGit } from "./git.js";
import { ReadLimit } from "./read-limit.js";
import {
  branchExists,
  checkBranchName,
  findRepository,
  mergeTargetOf,
  type Repository,
  resolveBase,
} from "./repository.js";
import { RepositoryQueue } from "./repository-queue.js";
import {
  addWorktree,
  ensureWorktreeRoot,
  freeBranch,
  removeWorktree,
  saveUncommitted,
} from "./worktree-folder.js";
import { mergeWork } from "./worktree-merge.js";
import { WorktreeRowReader } from "./worktree-row-reader.js";
import { runWorktreeSetup } from "./worktree-setup.js";
import { numstat, workState, worktreeRow } from "./worktree-status.js";
import { WorktreeWatch } from "./worktree-watch.js";

/** How long a worktree's changes gather before its row is read from git again. */
const WATCH_DEBOUNCE_MS = 300;
/** Worktree reads at once (each runs a few gits). */
const READS_AT_ONCE = 2;

/** What a dispatch asks of worktrees: from its args, or a spawning parent's. */
export interface WorktreeRequest {
  /** true: one is made or the dispatch fails; false: none; undefined: as the profile and roost.json say. */
  worktree?: boolean | null;
  base?: string | null;
  branch?: string | null;
}

/** A worktree made for a job about to be: its record, and the folder the job runs in. */
export interface PreparedWorktree {
  worktree: WorktreeRecord;
  cwd: string;
  /** The checkout it was made from (setup copies from there). */
  from: string;
  setup: WorktreeSetup | null;
}

/** A linked worktree's own git folder (its `.git` file says where): a commit writes its index there. */
function gitFolderOf(path: string): string[] {
  try {
    const gitdir = /^gitdir: (.+)$/m.exec(readFileSync(join(path, ".git"), "utf8"))?.[1];
    return gitdir ? [resolve(path, gitdir.trim())] : [];
  } catch {
    return [];
  }
}

export class Worktrees {
  private readonly queue = new RepositoryQueue();
  private readonly reads = new ReadLimit(READS_AT_ONCE);
  private readonly watches = new Map<string, WorktreeWatch>();
  private readonly rows: WorktreeRowReader;

  constructor(
    private readonly state: DaemonState,
    private readonly log: (line: string) => void,
  ) {
    this.rows = new WorktreeRowReader(state, this.reads, log);
  }

  /** Watches every job that has a worktree (at daemon start: the jobs read from the store). */
  start(): void {
    for (const job of this.state.jobs.values()) this.track(job);
  }

  /** Whether a dispatch gets a worktree: its own say, else its profile's, else roost.json's. */
  modeFor(request: WorktreeRequest, profile: AgentProfile): WorktreeMode {
    const mode = request.worktree ?? profile.worktree ?? readWorktreeSettings(this.state.paths).worktree;
    if (mode === false && (request.base != null || request.branch != null))
      throw new RoostError("bad_request", "--base and --branch go with --worktree");
    return mode;
  }

  /**
   * The worktree a dispatch gets, made now: `true` fails with the reason there is none; `"auto"`
   * makes one only when `cwd` is in a repository with a commit (null otherwise).
   */
  async prepare(
    mode: true | "auto",
    request: WorktreeRequest,
    profile: AgentProfile,
    cwd: string,
    name: string,
  ): Promise<PreparedWorktree | null> {
    const settings = readWorktreeSettings(this.state.paths);
    let repo: Repository;
    try {
      await requireGit();
      repo = await findRepository(cwd);
      // Checked here, not in the queue: "auto" makes none for a repository with no commit.
      if (mode === "auto") await resolveBase(repo.checkout, "HEAD");
    } catch (err) {
      const notHere = ["not_a_repository", "bare_repository", "no_commits", "git_unavailable"];
      if (mode === "auto" && err instanceof RoostError && notHere.includes(String(err.code))) return null;
      throw err;
    }
    return this.queue.run(repo.commonDir, () =>
      this.make(repo, request, cwd, name, settings.root, profile.worktreeSetup ?? settings.setup),
    );
  }

  private async make(
    repo: Repository,
    request: WorktreeRequest,
    cwd: string,
    name: string,
    root: string,
    setup: WorktreeSetup | null,
  ): Promise<PreparedWorktree> {
    const base = request.base ?? "HEAD";
    // Asked of git at once (a dispatch's own time beside its `worktree add`); refused in this order.
    const asked = await Promise.allSettled([
      resolveBase(repo.checkout, base),
      mergeTargetOf(repo.checkout, base),
      this.branchFor(repo.checkout, request.branch, name),
    ]);
    for (const answer of asked) if (answer.status === "rejected") throw answer.reason;
    const [baseCommit, into, branch] = asked.map((a) => (a as PromiseFulfilledResult<unknown>).value) as [
      string,
      string | null,
      string,
    ];
    ensureWorktreeRoot(root);
    const folder = join(root, `${basename(repo.mainCheckout)}-${basename(branch)}`);
    let path = folder;
    for (let n = 2; existsSync(path); n++) path = `${folder}-${n}`;
    await addWorktree(repo.checkout, path, branch, baseCommit);
    const inside = relative(repo.checkout, cwd);
    return {
      worktree: { repository: repo.mainCheckout, base, baseCommit, into, branch, path },
      cwd: inside && !inside.startsWith("..") ? resolve(path, inside) : path,
      from: repo.checkout,
      setup,
    };
  }

  /** The branch a job's worktree gets: the one asked for (made new), else `roost/<name>` made unique. */
  private async branchFor(checkout: string, asked: string | null | undefined, name: string): Promise<string> {
    if (asked == null) {
      const wanted = `roost/${name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "") || "job"}`;
      return freeBranch(checkout, wanted);
    }
    await checkBranchName(checkout, asked);
    if (await branchExists(checkout, asked))
      throw new RoostError(
        "branch_exists",
        `branch ${JSON.stringify(asked)} exists already; name another with --branch`,
      );
    return asked;
  }

  /** Takes back a worktree made for a job that was then not kept (its branch with it: it holds nothing). */
  async discard(wt: WorktreeRecord): Promise<void> {
    await this.queue
      .run(wt.repository, () => removeWorktree(wt, true))
      .catch((err) =>
        this.log(`roost: the worktree ${wt.path} of a job not made stays: ${(err as Error).message}`),
      );
  }

  /** Runs the worktree's setup for the job; its output goes to the job's terminal log. */
  setup(job: Job, prepared: PreparedWorktree): Promise<void> {
    if (prepared.setup === null) return Promise.resolve();
    return runWorktreeSetup(
      prepared.setup,
      prepared.from,
      prepared.worktree.path,
      job.env,
      terminalLogPath(job.dir),
    );
  }

  /**
   * Starts watching a job's worktree (once), and reads its row now; a worktree `made` this moment
   * (no setup run in it yet) is known without reading: fifty dispatches do not wait behind fifty
   * reads of large checkouts.
   */
  track(job: Job, made = false): void {
    const wt = job.worktree;
    if (!wt || this.watches.has(job.id)) return;
    this.watches.set(
      job.id,
      new WorktreeWatch(wt.path, gitFolderOf(wt.path), WATCH_DEBOUNCE_MS, (edits) =>
        this.rows.changed(job.id, edits),
      ),
    );
    if (made) this.rows.madeAtBase(job);
    else this.rows.changed(job.id, null);
  }

  /** Reads every job's row of one repository again (a merge moved its branches). */
  private refreshRepository(repository: string): void {
    for (const job of this.state.jobs.values())
      if (job.worktree?.repository === repository) this.rows.changed(job.id, null);
  }

  /** Stops watching a removed job. */
  untrack(id: string): void {
    this.rows.forget(id);
    this.watches.get(id)?.close();
    this.watches.delete(id);
  }

  /** The job's worktree, there: `bad_request` for a job without one, `worktree_missing` for one deleted. */
  private worktreeOf(job: Job): WorktreeRecord {
    if (!job.worktree)
      throw new RoostError("bad_request", `${job.name} has no worktree (dispatch it with --worktree)`);
    if (!existsSync(job.worktree.path))
      throw new RoostError(
        "worktree_missing",
        `${job.name}'s worktree ${job.worktree.path} is gone (deleted outside roost)`,
      );
    return job.worktree;
  }

  /** `worktree_missing` when the job's worktree folder is gone: it is never made again by itself. */
  requirePresent(job: Job): void {
    if (job.worktree) this.worktreeOf(job);
  }

  async diff(job: Job, statOnly: boolean): Promise<DiffResult> {
    const wt = this.worktreeOf(job);
    return this.reads.run(async () => {
      const row = await worktreeRow(wt, job.worktreeRow);
      const state = await workState(wt);
      const files = await numstat(wt.path, state.mergeBase, state.work);
      let patch: string | null = null;
      let truncated = false;
      if (!statOnly) {
        patch = (
          await git(wt.path, [
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-renames",
            state.mergeBase,
            state.work,
            "--",
          ])
        ).stdout;
        if (Buffer.byteLength(patch) > LIMITS.diffBytes) {
          patch = Buffer.from(patch).subarray(0, LIMITS.diffBytes).toString("utf8");
          truncated = true;
        }
      }
      return { worktree: row, files, patch, truncated };
    });
  }

  async merge(job: Job, args: MergeArgs): Promise<MergeResult> {
    const wt = this.worktreeOf(job);
    const into = args.into ?? wt.into;
    if (!into)
      throw new RoostError(
        "bad_request",
        `${job.name} was branched from a detached HEAD: say which branch with --into`,
      );
    const strategy = args.strategy ?? "merge";
    const dryRun = args.dryRun === true;
    const request = {
      name: job.name,
      strategy,
      into,
      message: args.message ?? null,
      commitAgentChanges: args.commitAgentChanges === true,
      dryRun,
    };
    // The record says what was merged before the merge lands: a store that cannot write refuses it.
    const plan = await this.queue.run(wt.repository, () =>
      mergeWork(wt, request, async (head) => {
        job.worktree = { ...wt, mergedHead: head };
        await this.state.save(job);
      }),
    );
    if (!dryRun) this.refreshRepository(wt.repository);
    return { id: job.id, branch: wt.branch, into, strategy, dryRun, ...plan };
  }

  /**
   * Before a job is removed: refuses (`unsaved_work`) when its worktree holds uncommitted or
   * unmerged work, unless `force`.
   */
  async checkRemoval(job: Job, force: boolean): Promise<void> {
    const wt = job.worktree;
    if (!wt || force || !existsSync(wt.path)) return;
    const row = await this.reads.run(() => worktreeRow(wt, job.worktreeRow));
    const unmerged = row.ahead > 0 && !row.merged;
    if (row.uncommitted === 0 && !unmerged) return;
    const what = [
      ...(row.uncommitted ? [`${row.uncommitted} uncommitted file(s)`] : []),
      ...(unmerged ? [`${row.ahead} commit(s) not merged into ${wt.into ?? wt.base}`] : []),
    ].join(" and ");
    throw new RoostError(
      "unsaved_work",
      `${job.name}'s worktree holds ${what} on ${wt.branch}: merge it, or rm --force (the branch is kept, uncommitted changes saved on roost/saved/${job.name})`,
    );
  }

  /**
   * Once a removed job's process is gone: its uncommitted changes saved on `roost/saved/<name>`,
   * its worktree removed, its branch deleted only when asked. Nothing is removed if the save fails.
   */
  async release(job: Job, deleteBranch: boolean): Promise<Omit<RmResult, "id">> {
    this.untrack(job.id);
    const wt = job.worktree;
    if (!wt) return {};
    return this.queue
      .run(wt.repository, async () => {
        const saved = await saveUncommitted(wt, job.name);
        await removeWorktree(wt, deleteBranch && saved === null);
        return { branch: wt.branch, saved, branchDeleted: deleteBranch && saved === null };
      })
      .catch((err) => {
        // The job is gone already; its work is not: the worktree stays where it is.
        this.log(`roost: job ${job.id}'s worktree ${wt.path} stays: ${(err as Error).message}`);
        return { branch: wt.branch, saved: null, branchDeleted: false, kept: wt.path };
      });
  }

  /**
   * The branches roost made (`roost/…`, saved work included) in the repositories of the jobs, and
   * in the one `cwd` is in: a removed job's branch stays listed until it is deleted.
   */
  async branches(cwd: string | null): Promise<BranchInfo[]> {
    const repositories = new Set<string>();
    for (const job of this.state.jobs.values()) if (job.worktree) repositories.add(job.worktree.repository);
    if (cwd) {
      const repo = await findRepository(cwd).catch(() => null);
      if (repo) repositories.add(repo.mainCheckout);
    }
    const out: BranchInfo[] = [];
    for (const repository of repositories) {
      if (!existsSync(repository)) continue;
      const refs = await this.queue.run(repository, () =>
        git(repository, ["for-each-ref", "--format=%(refname:short)%09%(objectname)", "refs/heads/roost/"]),
      );
      for (const line of refs.stdout.split("\n").filter(Boolean)) {
        const [branch, commit] = line.split("\t") as [string, string];
        const job = [...this.state.jobs.values()].find(
          (j) => j.worktree?.repository === repository && j.worktree.branch === branch,
        );
        out.push({
          branch,
          repository,
          commit,
          job: job ? { id: job.id, name: job.name } : null,
          saved: branch.startsWith("roost/saved/"),
        });
      }
    }
    return out;
  }

  close(): void {
    for (const id of [...this.watches.keys()]) this.untrack(id);
    this.rows.close();
  }
}
