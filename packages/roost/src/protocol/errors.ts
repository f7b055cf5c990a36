/** Every error code the daemon gives. The first six are the ones agents see (spec: "Error codes"). */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "not_found",
  "full",
  "busy",
  "unsupported",
  "locked",
  "limit",
  "rate_limited",
  "conflict",
  "blocked",
  "policy",
  "disconnected",
  "not_chosen",
  "reserved_name",
  "ended",
  /** The store could not keep the change (a full disk, a read-only database): nothing was changed. */
  "unwritable",
  /** A worktree was asked outside a git repository. */
  "not_a_repository",
  /** A worktree was asked of a repository with no commit yet. */
  "no_commits",
  /** The base of a worktree names no commit. */
  "unknown_base",
  /** The branch asked for a worktree exists already. */
  "branch_exists",
  /** A worktree was asked of a bare repository. */
  "bare_repository",
  /** The folder worktrees go in cannot be made or written. */
  "worktree_root_unwritable",
  /** git is missing, or older than worktrees need (named in the error). */
  "git_unavailable",
  /** A job's work does not merge cleanly (the conflicting files named); nothing was changed. */
  "merge_conflict",
  /** The main checkout has uncommitted changes a merge would touch (named); nothing was changed. */
  "checkout_dirty",
  /** A job's worktree holds work a merge or a removal would leave out or lose (said what). */
  "unsaved_work",
  /** A job's worktree folder is gone. */
  "worktree_missing",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error that travels on the wire as `{ok: false, error, code}`. */
export class RoostError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    message: string,
  ) {
    super(message);
    this.name = "RoostError";
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
