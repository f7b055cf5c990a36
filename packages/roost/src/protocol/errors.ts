/**
 * Every error code roost gives, each with the shape of its message, declared once here (as
 * fastify's errors.js): the daemon throws them, the clients and the CLI read them, and a code's
 * meaning is looked up here. The first six are the ones agents see (spec: "Error codes").
 */
export const ERROR_CATALOGUE = {
  bad_request: "a field or value the op does not take: the message names the field and what it must be",
  unauthorized: "the connection may not do this: a wrong token, or a report is due first",
  not_found: "no job (or task, schedule, session) by that id or name, or it was removed meanwhile",
  full: "a queue is at its limit (the replies waiting for a job): the message says which and how many",
  busy: "the process host is not connected or does not answer: try again shortly",
  unsupported: "the op does not apply to this job or caller (a terminal agent, a command reply offline)",
  locked: "another process holds the lock (a session's writer): the message names its pid",
  limit: "a cap of the agent-to-agent rules is reached: the message names it",
  rate_limited: "too many spawns in the last minute: the message says when to try again",
  conflict: "the change meets another under way or done (a claim, a spawn the host has already)",
  blocked: "the text matches one of the profile's blocked patterns: nothing was typed",
  policy: "the concierge's policy does not allow it: the message says which permission it needs",
  disconnected: "the session or the connection it needs is gone",
  not_chosen: "the screen did not show the option chosen: nothing was chosen",
  reserved_name: "the name is one roost keeps for itself",
  ended: "the job has ended and the op would start it anew: the message says how to ask for that",
  unwritable: "the store could not keep the change (a full disk, a read-only database): nothing was changed",
  not_a_repository: "a worktree was asked outside a git repository",
  no_commits: "a worktree was asked of a repository with no commit yet",
  unknown_base: "the base of a worktree names no commit",
  branch_exists: "the branch asked for a worktree exists already",
  bare_repository: "a worktree was asked of a bare repository",
  worktree_root_unwritable: "the folder worktrees go in cannot be made or written",
  git_unavailable: "git is missing, or older than worktrees need (named in the error)",
  merge_conflict: "a job's work does not merge cleanly (the conflicting files named): nothing was changed",
  checkout_dirty:
    "the main checkout has uncommitted changes a merge would touch (named): nothing was changed",
  unsaved_work: "a job's worktree holds work a merge or a removal would leave out or lose (said what)",
  worktree_missing: "a job's worktree folder is gone",
  not_started: "the job was started and did not come up: the message gives its row's error",
  notify_failed: "the notify command did not run, or exited non-zero (its error and output in the message)",
  over_budget:
    "a stop budget in roost.json that counts the session is spent: the message names it and what it counted; nothing was done",
  internal: "a fault in the daemon: it is in the daemon's log with its stack",
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every error code, in the catalogue's order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** An error that travels on the wire as `{ok: false, error, code}`. */
export class RoostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RoostError";
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CATALOGUE, value);
}

/**
 * An error from the wire: a code this side does not know (a newer daemon's) is `internal`, its
 * own code kept at the front of the text.
 */
export function errorFromWire(code: string, message: string): RoostError {
  return isErrorCode(code)
    ? new RoostError(code, message)
    : new RoostError("internal", `${code}: ${message}`);
}

/** The messages more than one place gives, each shaped once. */
export const roostErrors = {
  noJob: (idOrName: string) => new RoostError("not_found", `no job ${JSON.stringify(idOrName)}`),
  jobRemoved: (id: string) => new RoostError("not_found", `job ${id} was removed`),
  hostNotConnected: () => new RoostError("busy", "the process host is not connected; try again shortly"),
};
