/** A job's git worktree: what its record keeps, what its row shows, and the ops on its work. */
import { type Static, Type } from "typebox";
import { JobRef, Maybe } from "./fields.js";
import { LIMITS } from "./limits.js";

/** Where a job's worktree came from and lives: kept on its record, so a restart keeps it. */
export interface WorktreeRecord {
  /** The main checkout of the repository: where merges land. */
  repository: string;
  /** The base as it was asked (`HEAD`, a branch, a commit), and the commit it named then. */
  base: string;
  baseCommit: string;
  /** The branch its work merges into by default (null: the base was a detached HEAD or a commit). */
  into: string | null;
  branch: string;
  path: string;
  /** The branch's tip `merge` last brought into `into` (a later commit makes it unmerged again). */
  mergedHead?: string | null;
}

/** One changed file against the base: null counts for a binary file. */
export interface FileChange {
  path: string;
  added: number | null;
  removed: number | null;
}

/** What a row shows of a job's work (derived from git when its worktree changes). */
export interface WorktreeRow {
  branch: string;
  base: string;
  into: string | null;
  path: string;
  /** Commits on the branch not on `into` (or the base commit), and the other way. */
  ahead: number;
  behind: number;
  /** Changed files and lines against the base: committed, staged, unstaged and untracked together. */
  files: number;
  added: number;
  removed: number;
  /** Files changed but not committed on the branch. */
  uncommitted: number;
  /** Whether it would merge into `into` cleanly now (null: not known yet, or nothing to merge into). */
  mergeable: boolean | null;
  conflicts: string[];
  /** Its work is in `into`: merged by roost as it stands now, or its commits reached `into`. */
  merged: boolean;
  /** Its folder is gone (the person deleted it): never made again by itself. */
  missing: boolean;
  /** Why git could not say (the row keeps the last figures). */
  error: string | null;
}

/** Asks for a worktree on dispatch; `base` and `branch` only with it. */
export const WorktreeDispatchFields = {
  /** A worktree of the repository `cwd` is in (true), none (false), or as the profile says (left out). */
  worktree: Maybe(Type.Boolean()),
  base: Maybe(Type.String({ maxLength: LIMITS.gitRef })),
  branch: Maybe(Type.String({ maxLength: LIMITS.gitRef })),
};

export const DiffArgs = Type.Object({
  id: JobRef,
  /** The files and their counts alone, no patch. */
  stat: Maybe(Type.Boolean()),
});
export type DiffArgs = Static<typeof DiffArgs>;

export interface DiffResult {
  worktree: WorktreeRow;
  files: FileChange[];
  /** The patch against the base (null with `stat`); cut at `LIMITS.diffBytes`. */
  patch: string | null;
  truncated: boolean;
}

export const MERGE_STRATEGIES = ["merge", "squash", "rebase"] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export const MergeArgs = Type.Object({
  id: JobRef,
  strategy: Maybe(Type.Enum(MERGE_STRATEGIES)),
  into: Maybe(Type.String({ maxLength: LIMITS.gitRef })),
  message: Maybe(Type.String({ maxLength: LIMITS.replyText })),
  /** Commit what the agent has not committed, on its branch, first (else such work is refused). */
  commitAgentChanges: Maybe(Type.Boolean()),
  /** Says what would happen and changes nothing. */
  dryRun: Maybe(Type.Boolean()),
});
export type MergeArgs = Static<typeof MergeArgs>;

export interface MergeResult {
  id: string;
  branch: string;
  into: string;
  strategy: MergeStrategy;
  dryRun: boolean;
  /** The files the merge brings into `into`. */
  files: FileChange[];
  /** The commit `into` now points at (null on a dry run). */
  commit: string | null;
  /** The agent's uncommitted changes were committed on its branch first. */
  committedAgentChanges: boolean;
}

export const RmArgs = Type.Object({
  id: JobRef,
  /** Removes a job whose worktree holds uncommitted or unmerged work (saved first). */
  force: Maybe(Type.Boolean()),
  /** Deletes the job's branch as well (kept by default: its commits stay reachable). */
  deleteBranch: Maybe(Type.Boolean()),
});
export type RmArgs = Static<typeof RmArgs>;

export interface RmResult {
  id: string;
  /** The job's branch, kept unless `deleteBranch` (null: it had no worktree). */
  branch?: string | null;
  branchDeleted?: boolean;
  /** The ref its uncommitted changes were saved on (`roost/saved/<name>`), when it had some. */
  saved?: string | null;
  /** The worktree could not be saved and removed: it stays in this folder, as it was. */
  kept?: string;
}

/** A branch roost made: a job's, or saved work of a removed one. */
export interface BranchInfo {
  branch: string;
  repository: string;
  commit: string;
  /** The job working on it, when one still exists. */
  job: { id: string; name: string } | null;
  saved: boolean;
}

export const BranchesArgs = Type.Object({
  /** A folder whose repository's branches are listed too (a removed job's repository). */
  cwd: Maybe(Type.String()),
});

export interface BranchesResult {
  branches: BranchInfo[];
}
