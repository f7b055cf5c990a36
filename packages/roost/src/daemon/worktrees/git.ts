/**
 * Debian's `git`, run as a program (execFile, no shell): the one way roost's worktrees reach git.
 * A git that is missing or older than 2.38 (`merge-tree --write-tree`) is named in the error.
 */
import { execFile } from "node:child_process";
import { RoostError } from "../../protocol/index.js";

/** `merge-tree --write-tree` came in git 2.38. */
export const MIN_GIT: readonly [number, number] = [2, 38];

/** Which git to run: `ROOST_GIT` (a path), else `git` on the PATH. */
export function gitProgram(env: NodeJS.ProcessEnv = process.env): string {
  return env.ROOST_GIT && env.ROOST_GIT !== "" ? env.ROOST_GIT : "git";
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** Extra environment (a temporary index, a committer). */
  env?: Record<string, string>;
  /** Exit codes that answer rather than fail (`merge-tree` says 1 for conflicts). */
  allow?: number[];
  input?: string;
}

/** Output a diff of a large change may have: more than this is a failure, not a hang. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/** A git command that failed: its stderr's last line says why. */
export class GitFailure extends RoostError {
  constructor(
    readonly args: string[],
    readonly result: GitResult,
  ) {
    const why = result.stderr.trim().split("\n").slice(-3).join("; ") || `exit code ${result.code}`;
    super("internal", `git ${args[0]} failed: ${why}`);
  }
}

function spawnError(program: string, err: NodeJS.ErrnoException): RoostError {
  return new RoostError(
    "git_unavailable",
    err.code === "ENOENT"
      ? `git is not installed (no ${JSON.stringify(program)} on the PATH); worktrees need git ${MIN_GIT.join(".")} or newer`
      : `git could not be run (${program}): ${err.message}`,
  );
}

/** Runs `git ARGS` in `cwd`; a non-zero exit not in `allow` is a `GitFailure`. */
export function git(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const program = gitProgram();
  return new Promise((resolve, reject) => {
    const child = execFile(
      program,
      args,
      {
        cwd,
        encoding: "utf8",
        maxBuffer: MAX_OUTPUT,
        // Never a prompt or a pager: nobody is there to answer.
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C", ...options.env },
      },
      (err, stdout, stderr) => {
        const spawnFault = err as (NodeJS.ErrnoException & { code?: unknown }) | null;
        if (spawnFault && typeof spawnFault.code === "string") {
          reject(spawnError(program, spawnFault));
          return;
        }
        const code = child.exitCode ?? (err ? 1 : 0);
        const result = { stdout, stderr, code };
        if (code === 0 || options.allow?.includes(code)) resolve(result);
        else reject(new GitFailure(args, result));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** `git version 2.39.5` → [2, 39]; null when the text says no version. */
export function parseGitVersion(text: string): [number, number] | null {
  const m = /git version (\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

let checked: Promise<string> | null = null;
let checkedProgram = "";

/** The git version, checked once per program: `git_unavailable` when missing or below 2.38. */
export function requireGit(): Promise<string> {
  const program = gitProgram();
  if (checked === null || checkedProgram !== program) {
    checkedProgram = program;
    checked = git(process.cwd(), ["version"]).then(({ stdout }) => {
      const version = parseGitVersion(stdout);
      const [major, minor] = MIN_GIT;
      if (version === null || version[0] < major || (version[0] === major && version[1] < minor))
        throw new RoostError(
          "git_unavailable",
          `${program} is ${stdout.trim() || "of no known version"}; worktrees need git ${major}.${minor} or newer (merge-tree --write-tree)`,
        );
      return stdout.trim();
    });
    // A failed check is tried again next time (git may be installed meanwhile).
    checked.catch(() => {
      checked = null;
    });
  }
  return checked;
}
